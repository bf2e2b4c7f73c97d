// Webmail over the public mail API: folders with unread counts, a paged message list, reading
// with attachments, compose (To/Cc/Bcc, attachments), reply in thread, search, mark read and move.
// New mail arrives over the WebSocket GET /v1/events, or the long poll when there is none.
import {
  api,
  byId,
  el,
  fill,
  openSocket,
  renderHeader,
  requireSession,
  showError,
  status,
} from '/common/api.js';
import { compose, replyTo, setUpCompose } from './compose.js';
import { renderMessage } from './message-view.js';

const PAGE = 20;
const UNREAD_CAP = 100;

const current = await requireSession();
renderHeader(current);

/** What the list shows: a folder, or search results; `cursors` are the pages before this one. */
const view = { folder: 'inbox', query: '', cursor: undefined, cursors: [], next: undefined };
/** @type {{id: string, name: string}[]} */
let folders = [];
/** @type {any} the open message */
let open = null;
/** The seq of the last event handled, whichever transport brought it. */
let lastSeq = 0;

// ---- Folders ---------------------------------------------------------------------------------

async function unreadIn(folderId) {
  const page = await api(`/v1/folders/${encodeURIComponent(folderId)}/messages`, {
    query: { is_read: false, limit: UNREAD_CAP },
  });
  return page.next_cursor ? `${UNREAD_CAP - 1}+` : page.data.length;
}

async function loadFolders() {
  folders = await api('/v1/folders');
  const counts = await Promise.all(folders.map((f) => unreadIn(f.id)));
  fill(
    byId('folders'),
    ...folders.map((folder, i) =>
      el(
        'li',
        {},
        el(
          'a',
          {
            href: `#folder/${folder.id}`,
            'aria-current': view.query === '' && view.folder === folder.id ? 'true' : undefined,
            'data-folder': folder.id,
            onclick: (event) => {
              event.preventDefault();
              showFolder(folder.id).catch(showError);
            },
          },
          el('span', {}, folder.name),
          counts[i] === 0
            ? ''
            : el('span', { class: 'count', 'aria-label': `${counts[i]} unread` }, String(counts[i])),
        ),
      ),
    ),
  );
}

const folderName = (id) => folders.find((f) => f.id === id)?.name ?? id;

// ---- The list --------------------------------------------------------------------------------

async function loadList() {
  const page =
    view.query === ''
      ? await api(`/v1/folders/${encodeURIComponent(view.folder)}/messages`, {
          query: { limit: PAGE, cursor: view.cursor },
        })
      : await api('/v1/search', { query: { q: view.query, limit: PAGE, cursor: view.cursor } });
  view.next = page.next_cursor;
  byId('messages-title').textContent = view.query === '' ? folderName(view.folder) : `Search: ${view.query}`;
  const list = byId('messages');
  if (page.data.length === 0) {
    fill(list, el('li', { class: 'muted' }, view.query === '' ? 'No messages here.' : 'Nothing matches.'));
  } else {
    fill(list, ...page.data.map(listItem));
  }
  /** @type {HTMLButtonElement} */ (byId('newer')).disabled = view.cursors.length === 0;
  /** @type {HTMLButtonElement} */ (byId('older')).disabled = view.next === undefined || view.next === null;
}

function listItem(message) {
  const from = message.from?.name || message.from?.email || '(unknown)';
  const when = new Date(message.received_at).toLocaleString('en-GB', {
    dateStyle: 'short',
    timeStyle: 'short',
  });
  return el(
    'li',
    { class: message.is_read ? undefined : 'unread' },
    el(
      'a',
      {
        href: `#message/${message.email_id}`,
        'aria-current': open?.email_id === message.email_id ? 'true' : undefined,
        onclick: (event) => {
          event.preventDefault();
          read(message.email_id).catch(showError);
        },
      },
      el('span', { class: 'meta' }, el('span', {}, from), el('span', {}, when)),
      el('span', { class: 'subject' }, message.subject || '(no subject)'),
      message.has_attachments ? el('span', { class: 'muted' }, ' 📎') : '',
      message.is_read ? '' : el('span', { class: 'visually-hidden' }, ' (unread)'),
      el('div', { class: 'snippet' }, message.snippet ?? ''),
    ),
  );
}

async function showFolder(id) {
  Object.assign(view, { folder: id, query: '', cursor: undefined, cursors: [] });
  /** @type {HTMLInputElement} */ (byId('q')).value = '';
  await Promise.all([loadList(), loadFolders()]);
}

byId('older').addEventListener('click', () => {
  view.cursors.push(view.cursor);
  view.cursor = view.next;
  loadList().catch(showError);
});
byId('newer').addEventListener('click', () => {
  view.cursor = view.cursors.pop();
  loadList().catch(showError);
});
byId('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const q = /** @type {HTMLInputElement} */ (byId('q')).value.trim();
  if (q === '') {
    showFolder(view.folder).catch(showError);
    return;
  }
  Object.assign(view, { query: q, cursor: undefined, cursors: [] });
  Promise.all([loadList(), loadFolders()]).catch(showError);
});

// ---- Reading ---------------------------------------------------------------------------------

async function read(id) {
  // The reader empties at once: no action may reach the message shown before.
  byId('reader-title').textContent = 'Opening…';
  fill(byId('message'));
  open = await api(`/v1/messages/${encodeURIComponent(id)}`);
  if (!open.is_read) {
    open = await api(`/v1/messages/${encodeURIComponent(id)}`, { method: 'PATCH', body: { is_read: true } });
    await Promise.all([loadFolders(), loadList()]);
  } else {
    await loadList();
  }
  const thread = await api(`/v1/threads/${encodeURIComponent(open.thread_id)}`).catch(() => ({ data: [] }));
  renderMessage(open, thread.data, folders, {
    reply: (message) => compose(replyTo(message)),
    markUnread,
    move: moveTo,
    download,
    open: (id) => read(id).catch(showError),
  });
  byId('reader-title').focus();
}

async function markUnread(message) {
  await api(`/v1/messages/${encodeURIComponent(message.email_id)}`, {
    method: 'PATCH',
    body: { is_read: false },
  })
    .then(() => status('Marked unread.'))
    .catch(showError);
  await Promise.all([loadFolders(), loadList()]).catch(showError);
}

async function moveTo(message, folderId) {
  await api(`/v1/messages/${encodeURIComponent(message.email_id)}`, {
    method: 'PATCH',
    body: { folder_id: folderId },
  })
    .then(() => status(`Moved to ${folderName(folderId)}.`))
    .catch(showError);
  await Promise.all([loadFolders(), loadList()]).catch(showError);
}

/** The attachment route needs the bearer token, so the file is fetched and handed over as a blob. */
async function download(message, filename) {
  try {
    const response = await api(
      `/v1/messages/${encodeURIComponent(message.email_id)}/attachments/${encodeURIComponent(filename)}`,
      { raw: true },
    );
    const url = URL.createObjectURL(await response.blob());
    const link = el('a', { href: url, download: filename });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    showError(error);
  }
}

// ---- Live ------------------------------------------------------------------------------------

let refreshing = null;
/** Many events in a burst cost one refresh. */
function onEvents(events) {
  const fresh = events.filter((e) => e.seq > lastSeq);
  if (fresh.length === 0) return;
  lastSeq = Math.max(lastSeq, ...fresh.map((e) => e.seq));
  if (fresh.some((e) => e.type === 'message.new' && e.folder_id === 'inbox')) status('New mail arrived.');
  refreshing ??= Promise.all([loadFolders(), loadList()])
    .catch(showError)
    .finally(() => {
      refreshing = null;
    });
}

async function longPoll() {
  byId('feed').textContent = '· live (long poll)';
  for (;;) {
    try {
      const page = await api('/v1/events/poll', { query: { since: lastSeq, wait_ms: 25_000 } });
      onEvents(page.data);
      lastSeq = Math.max(lastSeq, page.next_since);
    } catch (error) {
      showError(error);
      // A failed poll (the server restarting, the network gone) is retried a little later.
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
}

/** The seq of the newest event: the backlog is read a page (100 events) at a time, bounded. */
async function newestSeq() {
  let since = 0;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await api('/v1/events/poll', { query: { since, wait_ms: 0 } });
    since = Math.max(since, page.next_since);
    if (page.data.length < 100) break;
  }
  return since;
}

async function live() {
  // Start from now: the events before the page opened are already in what it shows.
  if (lastSeq === 0) lastSeq = await newestSeq();
  let socket;
  try {
    socket = await openSocket(`/v1/events?since=${lastSeq}`, 'tessera.events.v1');
  } catch {
    return longPoll();
  }
  byId('feed').textContent = '· live';
  socket.addEventListener('message', (event) => onEvents([JSON.parse(event.data)]));
  socket.addEventListener('close', () => {
    // Reconnect from the last seq handled; where the socket is refused, the long poll carries on.
    setTimeout(() => live().catch(showError), 2000);
  });
}

setUpCompose(() => Promise.all([loadFolders(), loadList()]));
showFolder('inbox')
  .then(() => live())
  .catch(showError);
