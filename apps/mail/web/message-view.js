// The reader's view of one message: headers, actions, attachments, the text part and its thread.
import { byId, el, fill } from '/common/api.js';

const addresses = (list) => (list ?? []).map((a) => (a.name ? `${a.name} <${a.email}>` : a.email)).join(', ');

/**
 * Shows `message` in the reader: its headers, the actions, its attachments, its text part and
 * the other messages of its thread. `actions` are the page's: reply, markUnread, move, download
 * and open (another message of the thread).
 */
export function renderMessage(message, thread, folders, actions) {
  byId('reader-title').textContent = message.subject || '(no subject)';
  const rows = [
    ['From', addresses([message.from])],
    ['To', addresses(message.to)],
    ['Cc', addresses(message.cc)],
    ['Bcc', addresses(message.bcc)],
    ['Date', new Date(message.received_at).toLocaleString('en-GB')],
  ].filter(([, value]) => value !== '');
  const move = el(
    'select',
    { id: 'move-to', 'aria-label': 'Move to folder' },
    ...folders.map((f) => el('option', { value: f.id, selected: f.id === message.folder_id }, f.name)),
  );
  fill(
    byId('message'),
    el(
      'dl',
      { class: 'headers' },
      ...rows.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
    ),
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'button', onclick: () => actions.reply(message) }, 'Reply'),
      el(
        'button',
        { type: 'button', class: 'secondary', onclick: () => actions.markUnread(message) },
        'Mark unread',
      ),
      move,
      el(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => actions.move(message, /** @type {HTMLSelectElement} */ (move).value),
        },
        'Move',
      ),
    ),
    (message.attachments ?? []).length === 0
      ? ''
      : el(
          'section',
          { 'aria-label': 'Attachments' },
          el('h3', {}, 'Attachments'),
          el(
            'ul',
            { class: 'attachments' },
            ...message.attachments.map((a) =>
              el(
                'li',
                {},
                el(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary',
                    onclick: () => actions.download(message, a.filename),
                  },
                  a.filename,
                ),
                ` ${a.content_type}, ${a.size} bytes`,
              ),
            ),
          ),
        ),
    // The text part only: an HTML part is someone else's markup, and this page runs no one's.
    el('div', { class: 'body', 'data-testid': 'body' }, message.body ?? ''),
    thread.length > 1
      ? el(
          'section',
          { 'aria-label': 'Thread' },
          el('h3', {}, `In this thread (${thread.length})`),
          el(
            'ol',
            {},
            ...thread.map((m) =>
              el(
                'li',
                {},
                el(
                  'a',
                  {
                    href: `#message/${m.email_id}`,
                    onclick: (event) => {
                      event.preventDefault();
                      actions.open(m.email_id);
                    },
                  },
                  `${m.from?.email ?? ''}: ${m.subject || '(no subject)'}`,
                ),
              ),
            ),
          ),
        )
      : '',
  );
}
