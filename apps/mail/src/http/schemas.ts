/** JSON schemas of the mail API: validation at the edge and the OpenAPI document. */

const addressSchema = {
  type: 'object',
  required: ['email'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 256, default: '' },
    email: { type: 'string', maxLength: 254, examples: ['bob@tessera.local'] },
  },
} as const;

const addressListSchema = { type: 'array', maxItems: 100, items: addressSchema, default: [] } as const;

const idSchema = { type: 'string', maxLength: 64 } as const;

export const folderSchema = {
  type: 'object',
  required: ['id', 'name', 'user_id'],
  additionalProperties: false,
  properties: { id: { type: 'string' }, name: { type: 'string' }, user_id: { type: 'string' } },
} as const;

export const folderListSchema = { type: 'array', items: folderSchema } as const;

export const folderBodySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const folderParamsSchema = {
  type: 'object',
  required: ['folder_id'],
  properties: { folder_id: idSchema },
} as const;

export const messageParamsSchema = {
  type: 'object',
  required: ['message_id'],
  properties: { message_id: idSchema },
} as const;

export const attachmentParamsSchema = {
  type: 'object',
  required: ['message_id', 'filename'],
  properties: { message_id: idSchema, filename: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

export const threadParamsSchema = {
  type: 'object',
  required: ['thread_id'],
  properties: { thread_id: idSchema },
} as const;

export const listQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', maxLength: 64, description: 'next_cursor of the previous page' },
    is_read: { type: 'boolean', description: 'only read (true) or unread (false) messages' },
  },
} as const;

export const searchQuerySchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: {
      type: 'string',
      maxLength: 1000,
      description:
        'words and "phrases", from:, to:, subject:, is:unread, is:read, has:attachment, before:/after:YYYY-MM-DD',
    },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', maxLength: 64 },
  },
} as const;

export const pollQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    since: { type: 'integer', minimum: 0, default: 0, description: 'the last seq the client has seen' },
    wait_ms: { type: 'integer', minimum: 0, maximum: 30_000, default: 25_000 },
  },
} as const;

export const socketQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    since: { type: 'integer', minimum: 0, description: 'replay the events after this seq first' },
  },
} as const;

export const sendBodySchema = {
  type: 'object',
  required: ['subject', 'body'],
  additionalProperties: false,
  properties: {
    to: addressListSchema,
    cc: addressListSchema,
    bcc: addressListSchema,
    subject: { type: 'string', maxLength: 998 },
    body: { type: 'string' },
    html: { type: 'string' },
    attachments: {
      type: 'array',
      maxItems: 100,
      default: [],
      items: {
        type: 'object',
        required: ['filename', 'content'],
        additionalProperties: false,
        properties: {
          filename: { type: 'string', minLength: 1, maxLength: 255 },
          content_type: { type: 'string', maxLength: 255, default: 'application/octet-stream' },
          content: { type: 'string', description: 'base64' },
        },
      },
    },
    in_reply_to: { type: 'string', maxLength: 998 },
    references: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 998 }, default: [] },
  },
} as const;

export const messagePatchSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { is_read: { type: 'boolean' }, folder_id: idSchema },
} as const;

const replyAddress = {
  type: 'object',
  properties: { name: { type: 'string' }, email: { type: 'string' } },
} as const;

const summaryProperties = {
  email_id: { type: 'string' },
  user_id: { type: 'string' },
  folder_id: { type: 'string' },
  thread_id: { type: 'string' },
  from: replyAddress,
  to: { type: 'array', items: replyAddress },
  cc: { type: 'array', items: replyAddress },
  subject: { type: 'string' },
  snippet: { type: 'string' },
  is_read: { type: 'boolean' },
  received_at: { type: 'string', format: 'date-time' },
  has_attachments: { type: 'boolean' },
} as const;

export const summarySchema = { type: 'object', properties: summaryProperties } as const;

export const messageSchema = {
  type: 'object',
  properties: {
    ...summaryProperties,
    bcc: { type: 'array', items: replyAddress },
    body: { type: 'string' },
    html: { type: 'string' },
    message_id: { type: 'string' },
    in_reply_to: { type: 'string' },
    references: { type: 'array', items: { type: 'string' } },
    attachments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          filename: { type: 'string' },
          content_type: { type: 'string' },
          size: { type: 'integer' },
        },
      },
    },
    auth: {
      type: 'object',
      properties: { spf: { type: 'string' }, dkim: { type: 'string' }, dmarc: { type: 'string' } },
    },
    spam_score: { type: 'number' },
  },
} as const;

export const pageSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: summarySchema }, next_cursor: { type: 'string' } },
} as const;

export const threadSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: messageSchema } },
} as const;

export const deleteReplySchema = {
  type: 'object',
  required: ['email_id', 'deleted'],
  properties: {
    email_id: { type: 'string' },
    deleted: { type: 'boolean', description: 'true: removed for good; false: moved to Trash' },
  },
} as const;

export const pollReplySchema = {
  type: 'object',
  required: ['data', 'next_since'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          seq: { type: 'integer' },
          at: { type: 'string', format: 'date-time' },
          type: { type: 'string' },
          email_id: { type: 'string' },
          folder_id: { type: 'string' },
        },
      },
    },
    next_since: { type: 'integer' },
  },
} as const;
