// The month's top 10, refreshed every two seconds (the leaderboard has no push stream); a
// player's rank with the players around; and any past month.
import {
  ApiError,
  api,
  byId,
  el,
  every,
  fill,
  num,
  renderHeader,
  requireSession,
  showError,
  status,
} from '/common/api.js';

const REFRESH_MS = 2000;
const current = await requireSession();
renderHeader(current);

const periodInput = /** @type {HTMLInputElement} */ (byId('period'));
const playerInput = /** @type {HTMLInputElement} */ (byId('player'));
const thisMonth = () => new Date().toISOString().slice(0, 7);
periodInput.value = new URLSearchParams(location.search).get('period') ?? thisMonth();
playerInput.value = current.sub;

/** @type {Map<string, number>} the scores last shown, to mark what changed */
let shown = new Map();

function row(entry, changed) {
  return el(
    'tr',
    {
      class:
        [entry.user_id === playerInput.value ? 'me' : '', changed ? 'changed' : ''].join(' ').trim() ||
        undefined,
    },
    el('td', { class: 'num' }, entry.rank),
    el('td', {}, entry.user_name || entry.user_id),
    el('td', { class: 'num' }, num(entry.score)),
  );
}

async function loadTop() {
  const period = periodInput.value;
  const top = await api('/v1/scores', { query: { period, limit: 10 } });
  const body = byId('top').querySelector('tbody');
  const next = new Map(top.data.map((e) => [e.user_id, e.score]));
  if (top.data.length === 0) {
    fill(body, el('tr', {}, el('td', { colspan: 3, class: 'muted' }, `No scores in ${period} yet.`)));
  } else {
    fill(body, ...top.data.map((e) => row(e, shown.size > 0 && shown.get(e.user_id) !== e.score)));
  }
  shown = next;
  byId('live').textContent = period === thisMonth() ? '· live' : `· ${period}`;
}

async function loadPlayer() {
  const id = playerInput.value;
  const body = byId('around').querySelector('tbody');
  try {
    const found = await api(`/v1/scores/${encodeURIComponent(id)}`, {
      query: { period: periodInput.value, around: 5 },
    });
    const info = found.user_info;
    byId('player-rank').textContent = `${id} is #${info.rank} with ${num(info.score)} points.`;
    fill(body, ...(found.data ?? []).map((e) => row(e, false)));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    byId('player-rank').textContent = `${id} has no score in ${periodInput.value}.`;
    fill(body);
  }
}

const refresh = () => Promise.all([loadTop(), loadPlayer()]);

byId('period-form').addEventListener('submit', (event) => {
  event.preventDefault();
  shown = new Map();
  history.replaceState(null, '', `?period=${periodInput.value}`);
  refresh().then(() => status(`Showing ${periodInput.value}.`), showError);
});
byId('this-month').addEventListener('click', () => {
  periodInput.value = thisMonth();
  shown = new Map();
  history.replaceState(null, '', location.pathname);
  refresh().catch(showError);
});
byId('player-form').addEventListener('submit', (event) => {
  event.preventDefault();
  loadPlayer().catch(showError);
});

refresh().catch(showError);
every(REFRESH_MS, refresh);
