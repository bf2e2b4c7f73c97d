// One symbol's market (book, depth, trades, candles) and the signed-in account (orders,
// executions, balances). Live over the exchange's WebSocket (/v1/exchange/ws) when the server
// offers it; otherwise the same public REST routes polled every second.
import {
  ApiError,
  api,
  byId,
  el,
  every,
  fill,
  num,
  openSocket,
  renderHeader,
  requireSession,
  showError,
  status,
} from '/common/api.js';
import { renderAccount, time } from './account-view.js';
import { drawCandles, drawDepth } from './charts.js';

const POLL_MS = 1000;
const CANDLES_MS = 5000;
const CANDLE_COUNT = 60;
const TAPE_SIZE = 30;
const BOOK_DEPTH = 12;

const current = await requireSession();
renderHeader(current);
const canTrade = current.scopes.includes('trade');

const symbolInput = /** @type {HTMLInputElement} */ (byId('symbol'));
symbolInput.value = new URLSearchParams(location.search).get('symbol') ?? 'AAPL';
let symbol = symbolInput.value;

/** The book as price → quantity per side (what the WebSocket's level changes apply to). */
let book = { bids: new Map(), asks: new Map(), seq: -1 };
/** @type {{price: number, quantity: number, timestamp: number}[]} newest first */
let tape = [];
/** @type {WebSocket | null} */
let socket = null;
let stopPolling = () => {};

const sorted = (side, descending) =>
  [...side.entries()]
    .map(([price, quantity]) => ({ price, quantity }))
    .sort((a, b) => (descending ? b.price - a.price : a.price - b.price));

function setBook(bids, asks) {
  book.bids = new Map(bids.map((l) => [l.price, l.quantity]));
  book.asks = new Map(asks.map((l) => [l.price, l.quantity]));
}

function renderBook() {
  const bids = sorted(book.bids, true);
  const asks = sorted(book.asks, false);
  const level = (side, l) =>
    el(
      'tr',
      { class: side === 'Ask' ? 'sell' : 'buy' },
      el('td', {}, side),
      el('td', { class: 'num' }, num(l.price)),
      el('td', { class: 'num' }, num(l.quantity)),
    );
  const spread =
    bids.length > 0 && asks.length > 0
      ? `Spread ${num(asks[0].price - bids[0].price)}`
      : 'No spread: a side is empty';
  fill(
    byId('book').querySelector('tbody'),
    ...asks
      .slice(0, BOOK_DEPTH)
      .reverse()
      .map((l) => level('Ask', l)),
    el('tr', { class: 'spread' }, el('td', { colspan: 3 }, spread)),
    ...bids.slice(0, BOOK_DEPTH).map((l) => level('Bid', l)),
  );
  drawDepth(/** @type {SVGSVGElement} */ (byId('depth')), bids, asks);
}

function renderTape() {
  const body = byId('tape').querySelector('tbody');
  if (tape.length === 0) {
    fill(body, el('tr', {}, el('td', { colspan: 3, class: 'muted' }, 'No trades yet.')));
    return;
  }
  fill(
    body,
    ...tape.map((trade) =>
      el(
        'tr',
        {},
        el('td', {}, time(trade.timestamp)),
        el('td', { class: 'num' }, num(trade.price)),
        el('td', { class: 'num' }, num(trade.quantity)),
      ),
    ),
  );
}

async function loadCandles() {
  const resolution = Number(/** @type {HTMLSelectElement} */ (byId('resolution')).value);
  const endTime = Date.now();
  const startTime = Math.max(0, endTime - resolution * 1000 * CANDLE_COUNT);
  const { candles } = await api('/marketdata/candles', { query: { symbol, resolution, startTime, endTime } });
  drawCandles(/** @type {SVGSVGElement} */ (byId('candles')), candles);
  return candles;
}

/** Without the stream, the tape is the last ten minutes' one-second candles: price and volume. */
async function pollMarket() {
  const endTime = Date.now();
  const [l2, recent] = await Promise.all([
    api('/marketdata/orderBook/L2', { query: { symbol, depth: 100 } }),
    api('/marketdata/candles', { query: { symbol, resolution: 1, startTime: endTime - 600_000, endTime } }),
  ]);
  setBook(l2.bids, l2.asks);
  renderBook();
  tape = recent.candles
    .filter((c) => c.volume > 0)
    .map((c) => ({ price: c.close, quantity: c.volume, timestamp: c.timestamp }))
    .reverse()
    .slice(0, TAPE_SIZE);
  renderTape();
}

async function loadAccount() {
  if (!canTrade) return;
  const [me, open, executions] = await Promise.all([
    api('/v1/accounts/me'),
    api('/v1/orders', { query: { status: 'new', symbol } }),
    api('/execution', { query: { symbol } }),
  ]);
  renderAccount({ me, open, executions }, { shown: TAPE_SIZE, onCancel: cancel });
}

async function cancel(id) {
  try {
    await api(`/v1/order/${id}`, { method: 'DELETE' });
    status(`Order ${id} canceled.`);
  } catch (error) {
    showError(error);
  }
  await loadAccount().catch(showError);
}

function applyMarketData(message) {
  if (message.symbol !== symbol) return;
  if (message.type === 'snapshot') {
    setBook(message.bids, message.asks);
    book.seq = message.seq;
  } else if (message.type === 'md') {
    // Changes already in the snapshot are skipped (the protocol's seq rule).
    if (message.seq <= book.seq) return;
    book.seq = message.seq;
    for (const change of message.levels) {
      const side = change.side === 'buy' ? book.bids : book.asks;
      if (change.quantity === 0) side.delete(change.price);
      else side.set(change.price, change.quantity);
    }
    if (message.trades.length > 0) {
      tape = [...message.trades.slice().reverse(), ...tape].slice(0, TAPE_SIZE);
      renderTape();
    }
  }
  renderBook();
}

function usePolling(reason) {
  socket = null;
  byId('feed').textContent = '· refreshed every second';
  byId('tape-note').textContent = 'Trades per second (from the one-second candles).';
  if (reason) status(reason);
  stopPolling();
  const stopMarket = every(POLL_MS, pollMarket);
  const stopAccount = every(POLL_MS * 2, loadAccount);
  stopPolling = () => {
    stopMarket();
    stopAccount();
  };
  return pollMarket();
}

async function connect() {
  try {
    socket = await openSocket('/v1/exchange/ws', 'tessera.v1');
  } catch {
    return usePolling();
  }
  stopPolling();
  byId('feed').textContent = '· live';
  byId('tape-note').textContent = 'Trades since this page opened.';
  tape = [];
  renderTape();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'welcome') {
      fill(byId('symbols'), ...message.symbols.map((s) => el('option', { value: s })));
    } else if (message.type === 'snapshot' || message.type === 'md') {
      applyMarketData(message);
    } else if (message.type === 'account') {
      loadAccount().catch(showError);
    } else if (message.type === 'error') {
      status(`${message.code}: ${message.detail}`, 'error');
    }
  });
  socket.addEventListener('close', () => {
    usePolling('The live stream closed; refreshing every second instead.').catch(showError);
  });
  socket.send(JSON.stringify({ op: 'subscribe', symbol }));
}

function show(next) {
  if (socket !== null && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ op: 'unsubscribe', symbol }));
    symbol = next;
    book = { bids: new Map(), asks: new Map(), seq: -1 };
    tape = [];
    renderTape();
    socket.send(JSON.stringify({ op: 'subscribe', symbol }));
  } else {
    symbol = next;
    pollMarket().catch(showError);
  }
  history.replaceState(null, '', `?symbol=${encodeURIComponent(symbol)}`);
  return Promise.all([loadCandles(), loadAccount()]);
}

byId('symbol-form').addEventListener('submit', (event) => {
  event.preventDefault();
  show(symbolInput.value.toUpperCase()).catch(showError);
});
byId('resolution').addEventListener('change', () => loadCandles().catch(showError));
byId('order-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(/** @type {HTMLFormElement} */ (event.target));
  const order = {
    symbol,
    side: String(form.get('side')),
    orderType: 'limit',
    price: Number(form.get('price')),
    quantity: Number(form.get('quantity')),
  };
  api('/v1/order', { method: 'POST', body: order })
    .then((placed) => {
      status(
        `Order ${placed.id} ${placed.status === 'completed' ? 'filled' : 'placed'}: ${placed.side} ${placed.quantity} at ${placed.price}.`,
      );
      return Promise.all([loadAccount(), loadCandles(), socket === null ? pollMarket() : undefined]);
    })
    .catch(showError);
});

if (!canTrade) {
  for (const form of document.querySelectorAll('#order-form button, #order-form input')) {
    form.setAttribute('disabled', '');
  }
  status('Sign in with the "trade" scope to place orders and see your account.');
}

connect()
  .then(() => Promise.all([loadCandles(), loadAccount()]))
  .catch((error) => (error instanceof ApiError ? showError(error) : status(String(error), 'error')));
every(CANDLES_MS, loadCandles);
