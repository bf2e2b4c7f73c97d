import { defineErrors } from '@tessera/kit';

/** Every error the mail service answers with; ERRORS.md documents them (a test keeps both in step). */
export const mailErrors = defineErrors({
  MAIL_INVALID_ADDRESS: { status: 400, title: 'Invalid address' },
  MAIL_NO_RECIPIENT: { status: 400, title: 'No recipient' },
  MAIL_TOO_MANY_RECIPIENTS: { status: 400, title: 'Too many recipients' },
  MAIL_MESSAGE_TOO_LARGE: { status: 400, title: 'Message too large' },
  MAIL_ATTACHMENT_TOO_LARGE: { status: 400, title: 'Attachments too large' },
  MAIL_INVALID_FIELD: { status: 400, title: 'Invalid field' },
  MAIL_INVALID_FOLDER_NAME: { status: 400, title: 'Invalid folder name' },
  MAIL_BAD_CURSOR: { status: 400, title: 'Bad cursor' },
  MAIL_BAD_QUERY: { status: 400, title: 'Bad search query' },
  MAIL_FOLDER_NOT_FOUND: { status: 404, title: 'Folder not found' },
  MAIL_MESSAGE_NOT_FOUND: { status: 404, title: 'Message not found' },
  MAIL_THREAD_NOT_FOUND: { status: 404, title: 'Thread not found' },
  MAIL_ATTACHMENT_NOT_FOUND: { status: 404, title: 'Attachment not found' },
  MAIL_FOLDER_EXISTS: { status: 409, title: 'Folder exists' },
  MAIL_SPECIAL_FOLDER: { status: 409, title: 'Special folder' },
});
