// The development sign-in: asks the platform for a token and keeps it in this tab, then goes
// back to the page that sent us here.
import { api, byId, el, renderHeader, saveSession, session, showError, status } from '/common/api.js';

const SCOPES = [
  ['mail', 'Mail: read and send your mail'],
  ['trade', 'Trade: orders, executions and balances'],
  ['scores:read', 'Leaderboard: read the rankings'],
  ['scores:write', 'Leaderboard: post scores (a game server)'],
  ['profiles:write', 'Leaderboard: set display names'],
  ['admin', 'Admin: deposits and kill switches'],
];
const DEFAULT = new Set(['mail', 'trade', 'scores:read']);

const params = new URLSearchParams(location.search);
// Only a path of this site: an open redirect would let another site send people anywhere.
const next = /^\/[a-z]/.test(params.get('next') ?? '') ? params.get('next') : '/mail/';

const current = session();
renderHeader(current);
const sub = /** @type {HTMLInputElement} */ (byId('sub'));
sub.value = current?.sub ?? '';
const chosen = new Set(current?.scopes ?? DEFAULT);
byId('scopes').replaceChildren(
  ...SCOPES.map(([scope, text]) =>
    el(
      'label',
      { class: 'inline' },
      el('input', { type: 'checkbox', name: 'scope', value: scope, checked: chosen.has(scope) }),
      el('code', {}, scope),
      ` ${text}`,
    ),
  ),
);
const mailbox = byId('mailbox');
const showMailbox = () => {
  mailbox.textContent = `${sub.value || 'user'}@tessera.local`;
};
sub.addEventListener('input', showMailbox);
showMailbox();
sub.focus();

byId('signin').addEventListener('submit', (event) => {
  event.preventDefault();
  const scopes = [...document.querySelectorAll('input[name=scope]:checked')].map(
    (box) => /** @type {HTMLInputElement} */ (box).value,
  );
  if (!sub.checkValidity()) {
    status('The user id is 1 to 64 letters, digits, _ or -.', 'error');
    sub.focus();
    return;
  }
  if (scopes.length === 0) {
    status('Choose at least one scope.', 'error');
    return;
  }
  api('/signin/token', { method: 'POST', body: { sub: sub.value, scopes } })
    .then((minted) => {
      saveSession(minted);
      status(`Signed in as ${minted.sub}.`);
      location.assign(next);
    })
    .catch(showError);
});
