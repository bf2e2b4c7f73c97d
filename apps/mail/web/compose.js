// The compose dialog: To/Cc/Bcc, subject, body and attachments, sent through POST /v1/messages;
// a reply carries the thread's In-Reply-To and References.
import { api, byId, showError, status } from '/common/api.js';

const dialog = /** @type {HTMLDialogElement} */ (byId('compose'));
const field = (id) => /** @type {HTMLInputElement} */ (byId(id));
/** @type {{in_reply_to?: string, references?: string[]}} */
let threading = {};

/** The draft of a reply to `message`: its sender, "Re:", the quoted body and the thread's ids. */
export function replyTo(message) {
  const subject = message.subject ?? '';
  return {
    to: message.from?.email ?? '',
    subject: /^re:/i.test(subject) ? subject : `Re: ${subject}`,
    body: `\n\nOn ${new Date(message.received_at).toUTCString()}, ${message.from?.email} wrote:\n${(
      message.body ?? ''
    )
      .trimEnd()
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n')}`,
    in_reply_to: message.message_id,
    references: [...(message.references ?? []), ...(message.message_id ? [message.message_id] : [])],
  };
}

/** Opens the dialog with `draft` filled in (empty for a new message). */
export function compose(draft = {}) {
  for (const id of ['to', 'cc', 'bcc', 'subject', 'body']) field(id).value = draft[id] ?? '';
  field('files').value = '';
  threading = { in_reply_to: draft.in_reply_to, references: draft.references };
  byId('compose-title').textContent = draft.in_reply_to ? 'Reply' : 'New message';
  dialog.showModal();
  (draft.to ? field('body') : field('to')).focus();
  if (draft.to) field('body').setSelectionRange(0, 0);
}

const parseAddresses = (text) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const named = /^(.*)<([^>]+)>$/.exec(part);
      return named
        ? { name: named[1].trim().replace(/^"|"$/g, ''), email: named[2].trim() }
        : { email: part };
    });

function base64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Wires the dialog's buttons; `onSent` runs after a message was accepted (to refresh the lists). */
export function setUpCompose(onSent) {
  byId('compose-button').addEventListener('click', () => compose());
  byId('discard').addEventListener('click', () => dialog.close());
  byId('compose-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const send = /** @type {HTMLButtonElement} */ (byId('send'));
    send.disabled = true;
    const files = [...(field('files').files ?? [])];
    Promise.all(
      files.map(async (file) => ({
        filename: file.name,
        content_type: file.type || 'application/octet-stream',
        content: await base64(file),
      })),
    )
      .then((attachments) =>
        api('/v1/messages', {
          method: 'POST',
          body: {
            to: parseAddresses(field('to').value),
            cc: parseAddresses(field('cc').value),
            bcc: parseAddresses(field('bcc').value),
            subject: field('subject').value,
            body: field('body').value,
            attachments,
            ...(threading.in_reply_to
              ? { in_reply_to: threading.in_reply_to, references: threading.references }
              : {}),
          },
        }),
      )
      .then(() => {
        dialog.close();
        status('Sent.');
        return onSent();
      })
      .catch(showError)
      .finally(() => {
        send.disabled = false;
      });
  });
}
