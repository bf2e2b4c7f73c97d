import { connect } from 'node:net';
import t, { type Test } from 'tap';
import WebSocket from 'ws';
import { FeedHub } from '../../src/http/feed-hub.ts';
import { FEED_PATH, feedRoute } from '../../src/http/feed-route.ts';
import { exchangeApp } from './exchange-app.ts';

type Message = Record<string, unknown> & { type: string };

async function start(t: Test, maxBuffered = 1 << 20, authFailureLimitPerMinute?: number) {
  let hub: FeedHub | undefined;
  const { app, service, token } = await exchangeApp(t, {
    ...(authFailureLimitPerMinute === undefined ? {} : { authFailureLimitPerMinute }),
    limits: { dailyCap: 10_000_000, maxQuantity: 10_000, maxNotional: 1e12 },
    listen: true,
    register: (app, service) => {
      hub = new FeedHub(maxBuffered, (symbol) => service.feedSnapshot(symbol));
      return app.register(feedRoute, { service, hub });
    },
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = `ws://127.0.0.1:${port}${FEED_PATH}`;
  return { app, service, hub: hub!, url, token };
}

/** A client that records every message and can wait for one that matches. */
function client(url: string, options: WebSocket.ClientOptions = {}, protocols?: string[]) {
  const ws = new WebSocket(url, protocols, options);
  const messages: Message[] = [];
  const waiters: Array<{ test: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    const m = JSON.parse(data.toString('utf8')) as Message;
    m['__binary'] = isBinary;
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = (test: (m: Message) => boolean): Promise<Message> => {
    const seen = messages.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no such message within 10 s')), 10_000);
      waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  };
  const send = (m: object) => ws.send(JSON.stringify(m));
  return { ws, messages, opened, closed, next, send };
}

const order = (symbol: string, side: 'buy' | 'sell', price: number, quantity: number) => ({
  symbol,
  side,
  price,
  orderType: 'limit',
  quantity,
});

t.test('crossing orders: both accounts get their events, a subscriber sees L2 and the trade', async (t) => {
  const { service, url, token } = await start(t);
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  const alice = client(url, { headers: { authorization: `Bearer ${await token('alice', 'trade')}` } });
  // A browser's way: the token as a subprotocol beside tessera.v1.
  const bob = client(url, {}, ['tessera.v1', `bearer.${await token('bob', 'trade')}`]);
  const watcher = client(url);
  await Promise.all([alice.opened, bob.opened, watcher.opened]);
  t.equal(bob.ws.protocol, 'tessera.v1', 'the server picks tessera.v1, never echoes the token');
  t.match(await alice.next((m) => m.type === 'welcome'), {
    v: 1,
    account: 'alice',
    symbols: ['AAPL', 'MSFT'],
  });
  t.match(await watcher.next((m) => m.type === 'welcome'), { account: null });

  await service.placeOrder('bob', order('AAPL', 'sell', 101, 10));
  watcher.send({ op: 'subscribe', symbol: 'AAPL' });
  const snapshot = await watcher.next((m) => m.type === 'snapshot');
  t.match(snapshot, {
    symbol: 'AAPL',
    seq: service.seq,
    bids: [],
    asks: [{ price: 101, quantity: 10 }],
    l1: { bid: null, ask: { price: 101, quantity: 10 } },
  });
  t.equal(snapshot['__binary'], false, 'text frames');

  const buy = await service.placeOrder('alice', order('AAPL', 'buy', 102, 4));
  const md = await watcher.next((m) => m.type === 'md');
  t.match(md, {
    symbol: 'AAPL',
    seq: service.seq,
    levels: [{ side: 'sell', price: 101, quantity: 6 }],
    trades: [{ price: 101, quantity: 4 }],
    l1: { bid: null, ask: { price: 101, quantity: 6 } },
  });

  const aliceUpdate = await alice.next((m) => m.type === 'account' && m['seq'] === service.seq);
  t.match(aliceUpdate['events'], [
    { type: 'order.accepted', order: { id: buy.id, status: 'new', filledQuantity: 0 } },
    { type: 'execution', execution: { orderId: buy.id, side: 'buy', price: 101, quantity: 4 } },
    { type: 'order.completed', order: { id: buy.id, status: 'completed', filledQuantity: 4 } },
  ]);
  const bobUpdate = await bob.next((m) => m.type === 'account' && m['seq'] === service.seq);
  t.match(bobUpdate['events'], [{ type: 'execution', execution: { side: 'sell', price: 101, quantity: 4 } }]);
  t.notOk(
    alice.messages.some((m) => JSON.stringify(m).includes('"account":"bob"')),
    "alice never sees bob's events",
  );
  t.notOk(
    watcher.messages.some((m) => m.type === 'account'),
    'an anonymous subscriber gets no account events',
  );

  watcher.send({ op: 'subscribe', symbol: 'ZZZ' });
  t.match(await watcher.next((m) => m.type === 'error'), { code: 'EX_UNKNOWN_SYMBOL' });
  watcher.send({ op: 'dance' });
  t.match(await watcher.next((m) => m.type === 'error' && m['code'] === 'EX_WS_BAD_MESSAGE'), {
    detail: /op/,
  });
  watcher.send({ op: 'ping' });
  await watcher.next((m) => m.type === 'pong');
  for (const c of [alice, bob, watcher]) c.ws.close();
});

t.test('a bad or scope-less token refuses the upgrade; no token is market data only', async (t) => {
  const { url, token } = await start(t);
  const statusOf = (headers: Record<string, string>) => upgradeStatus(url, headers);
  t.equal(await statusOf({ authorization: 'Bearer not-a-jwt' }), 401);
  t.equal(await statusOf({ authorization: `Bearer ${await token('eve', 'mail')}` }), 403);
  t.equal(await statusOf({}), 101);
  t.equal(await statusOf({ authorization: 'Basic YW5hOnB3' }), 401, 'not a bearer token: not market data');
  const reader = await token('ana', 'trade');
  const twice = await rawUpgrade(url, [`Authorization: Bearer ${reader}`, `authorization: Bearer ${reader}`]);
  t.match(twice, /^HTTP\/1\.1 400 /, 'two Authorization headers are refused, not "first one wins"');
  t.match(await rawUpgrade(url, [`Authorization: Bearer ${reader}`]), /^HTTP\/1\.1 101 /);
});

t.test('bad tokens on the feed count against the address like any failed authentication', async (t) => {
  const { url } = await start(t, 1 << 20, 2);
  const statusOf = (headers: Record<string, string>) => upgradeStatus(url, headers);
  t.equal(await statusOf({ authorization: 'Bearer guess-1' }), 401);
  t.equal(await statusOf({ authorization: 'Bearer guess-2' }), 401);
  t.equal(
    await statusOf({ authorization: 'Bearer guess-3' }),
    429,
    'out of budget: refused before the check',
  );
  t.equal(await statusOf({}), 101, 'market data without a token is still served');
});

/** The status a WebSocket upgrade with these headers gets (101 when it opens). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('error', () => {});
    ws.on('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
  });
}

/** The status line and headers of an upgrade sent as written (ws sends one header per name). */
function rawUpgrade(url: string, extra: readonly string[]): Promise<string> {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        [
          `GET ${pathname} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          ...extra,
          '',
          '',
        ].join('\r\n'),
      );
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer: ${text}`)));
  });
}

t.test('a paused reader is dropped with 4008 while a fast one gets every update', async (t) => {
  const { service, hub, url, token } = await start(t, 64 * 1024);
  await service.deposit('bob', 0, { AAPL: 10_000_000 });
  const slow = client(url, { headers: { authorization: `Bearer ${await token('bob', 'trade')}` } });
  const fast = client(url);
  await Promise.all([slow.opened, fast.opened]);
  slow.send({ op: 'subscribe', symbol: 'AAPL' });
  fast.send({ op: 'subscribe', symbol: 'AAPL' });
  await Promise.all([slow.next((m) => m.type === 'snapshot'), fast.next((m) => m.type === 'snapshot')]);
  slow.ws.pause();

  // Rounds of 1,000 resting sells in one batch, then cancel-all: ~0.5 MB each to bob, who reads nothing.
  let rounds = 0;
  for (; rounds < 200 && hub.dropped === 0; rounds++) {
    for (let i = 0; i < 1_000; i++) service.submitOrder('bob', order('AAPL', 'sell', 1 + (i % 1_000), 1));
    await service.durable();
    await service.cancelAll('bob');
    await fast.next((m) => m.type === 'md' && m['seq'] === service.seq);
  }
  t.equal(hub.dropped, 1, `the slow reader was dropped after ${rounds} rounds`);

  // One more round after the drop: the fast one still gets it, and its book matches the server's.
  await service.placeOrder('bob', order('AAPL', 'sell', 500, 3));
  await fast.next((m) => m.type === 'md' && m['seq'] === service.seq);
  const book = new Map<number, number>();
  const snap = fast.messages.find((m) => m.type === 'snapshot') as unknown as {
    asks: Array<{ price: number; quantity: number }>;
  };
  for (const level of snap.asks) book.set(level.price, level.quantity);
  const mds = fast.messages.filter((m) => m.type === 'md');
  for (const m of mds)
    for (const l of m['levels'] as Array<{ price: number; quantity: number }>) {
      if (l.quantity === 0) book.delete(l.price);
      else book.set(l.price, l.quantity);
    }
  t.same(
    [...book].map(([price, quantity]) => ({ price, quantity })),
    service.l2('AAPL', 100).asks,
  );
  t.equal(mds.length, rounds * 2 + 1, 'one md per batch, none missed');

  slow.ws.resume();
  const { code, reason } = await slow.closed;
  t.equal(code, 4008);
  t.match(reason, /slow consumer/);
  fast.ws.close();
});
