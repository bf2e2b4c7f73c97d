// What every page shares: the session the sign-in page keeps, calls to the public API with its
// bearer token, problem+json errors, live sockets, and small DOM helpers. Text goes in with
// textContent only (never innerHTML): mail subjects and player names are other people's input.

const KEY = 'tessera.session';

/** @typedef {{ token: string, sub: string, scopes: string[], expiresAt: number }} Session */

/** @returns {Session | null} the signed-in session of this tab, unless it expired */
export function session() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (saved && typeof saved.token === 'string' && saved.expiresAt > Date.now()) return saved;
  } catch {
    // A damaged entry is the same as none.
  }
  return null;
}

/** @param {{ token: string, sub: string, scopes: string[], expires_in: number }} minted */
export function saveSession(minted) {
  const saved = {
    token: minted.token,
    sub: minted.sub,
    scopes: minted.scopes,
    expiresAt: Date.now() + minted.expires_in * 1000,
  };
  sessionStorage.setItem(KEY, JSON.stringify(saved));
  return saved;
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

/**
 * The session; without one, off to the sign-in page (which comes back here) and a promise that
 * never settles, so that the page's module stops there without an error.
 * @returns {Promise<Session>}
 */
export function requireSession() {
  const current = session();
  if (current !== null) return Promise.resolve(current);
  location.assign(`/signin/?next=${encodeURIComponent(location.pathname + location.search)}`);
  return new Promise(() => {});
}

export class ApiError extends Error {
  /** @param {number} status @param {Record<string, unknown>} problem */
  constructor(status, problem) {
    super(typeof problem.detail === 'string' ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * Calls the API. `query` values that are undefined are left out; `body` is sent as JSON.
 * @param {string} path
 * @param {{ method?: string, query?: Record<string, unknown>, body?: unknown, raw?: boolean, signal?: AbortSignal }} [options]
 */
export async function api(path, options = {}) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  const current = session();
  if (current !== null) headers.authorization = `Bearer ${current.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) {
    const problem = await response.json().catch(() => ({ detail: response.statusText }));
    throw new ApiError(response.status, problem);
  }
  if (options.raw === true) return response;
  return response.status === 204 ? undefined : response.json();
}

/**
 * A WebSocket to this host, the token offered as a `bearer.<token>` subprotocol beside the
 * stream's own (browsers cannot set headers on a WebSocket; a subprotocol stays out of URLs and
 * logs). Resolves once open; rejects when the server does not offer the stream.
 * @param {string} path
 * @param {string} protocol the stream's subprotocol, e.g. 'tessera.v1'
 * @returns {Promise<WebSocket>}
 */
export function openSocket(path, protocol) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const current = session();
  const protocols = current === null ? [protocol] : [protocol, `bearer.${current.token}`];
  return new Promise((resolve, reject) => {
    let socket;
    try {
      socket = new WebSocket(`${scheme}//${location.host}${path}`, protocols);
    } catch (error) {
      reject(error);
      return;
    }
    const fail = () => reject(new Error(`no WebSocket at ${path}`));
    socket.addEventListener('error', fail, { once: true });
    socket.addEventListener(
      'open',
      () => {
        socket.removeEventListener('error', fail);
        resolve(socket);
      },
      { once: true },
    );
  });
}

/**
 * Builds an element: `attrs` are attributes (`on*` functions become listeners), children are
 * nodes or text.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else if (value === true) {
      node.setAttribute(name, '');
    } else {
      node.setAttribute(name, String(value));
    }
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'number' ? String(child) : child);
  }
  return node;
}

/** Replaces the children of `node`. @param {Element} node @param {...(Node | string)} children */
export function fill(node, ...children) {
  node.replaceChildren(...children);
  return node;
}

/** @param {string} id */
export function byId(id) {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node;
}

/** Says `message` in the page's status line (an aria-live region) for screen readers too. */
export function status(message, kind = 'info') {
  const line = document.getElementById('status');
  if (line === null) return;
  line.textContent = message;
  line.dataset.kind = kind;
}

/** Shows an API failure in the status line; returns nothing so it can end a promise chain. */
export function showError(error) {
  const message =
    error instanceof ApiError ? `${error.problem.title ?? 'Error'}: ${error.message}` : String(error);
  status(message, 'error');
}

/** The page's header: the pages, who is signed in, and a sign-out button. */
export function renderHeader(current) {
  const nav = byId('site');
  const here = location.pathname;
  const link = (href, text) =>
    el('a', { href, 'aria-current': here.startsWith(href) ? 'page' : undefined }, text);
  fill(
    nav,
    el('a', { href: '/signin/', class: 'brand' }, 'Tessera'),
    el(
      'ul',
      {},
      el('li', {}, link('/mail/', 'Mail')),
      el('li', {}, link('/exchange/', 'Exchange')),
      el('li', {}, link('/leaderboard/', 'Leaderboard')),
    ),
    current === null
      ? el('a', { href: '/signin/' }, 'Sign in')
      : el(
          'span',
          { class: 'who' },
          'Signed in as ',
          el('strong', { 'data-testid': 'who' }, current.sub),
          ' ',
          el(
            'button',
            {
              type: 'button',
              onclick: () => {
                signOut();
                location.assign('/signin/');
              },
            },
            'Sign out',
          ),
        ),
  );
}

/** Repeats `task` every `ms` while the page is visible; the returned function stops it. */
export function every(ms, task) {
  let timer;
  let stopped = false;
  const run = async () => {
    if (stopped) return;
    if (document.visibilityState === 'visible') await task().catch(showError);
    if (!stopped) timer = setTimeout(run, ms);
  };
  timer = setTimeout(run, ms);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** A number with thousands separators. */
export function num(value) {
  return Number(value).toLocaleString('en-US');
}
