import t from 'tap';
import type { DurableSnapshot, FeedUpdates, SymbolSnapshot, SymbolUpdate } from '../../src/core/feed.ts';
import { FeedHub, SLOW_CONSUMER_CLOSE, type FeedSocket } from '../../src/http/feed-hub.ts';

class FakeSocket implements FeedSocket {
  readonly sent: Buffer[] = [];
  bufferedAmount = 0;
  closed: { code: number; reason: string } | undefined;
  /** A paused reader: the fake "kernel" takes none of its bytes, so they all stay buffered. */
  readonly paused: boolean;
  constructor(paused = false) {
    this.paused = paused;
  }
  send(data: Buffer, options: { binary: boolean }): void {
    if (options.binary) throw new Error('text frames only');
    this.sent.push(data);
    if (this.paused) this.bufferedAmount += data.length;
  }
  close(code: number, reason: string): void {
    this.closed = { code, reason };
  }
  messages(): Array<Record<string, unknown>> {
    return this.sent.map((b) => JSON.parse(b.toString()) as Record<string, unknown>);
  }
}

let seq = 10;
const book = (symbol: string): SymbolSnapshot => ({
  type: 'snapshot',
  symbol,
  seq,
  l1: { bid: null, ask: null },
  bids: [],
  asks: [],
});
/** A snapshot whose commands are durable already. */
const snapshot = (symbol: string): DurableSnapshot => ({
  snapshot: book(symbol),
  durable: Promise.resolve(),
});
/** Lets the commits that resolved send their snapshots. */
const sent = () => new Promise((resolve) => setImmediate(resolve));
const md = (fromSeq: number, to: number, levels = 1): FeedUpdates => {
  const update: SymbolUpdate = {
    type: 'md',
    symbol: 'AAPL',
    fromSeq,
    seq: to,
    l1: null,
    levels: Array.from({ length: levels }, (_, i) => ({ side: 'buy' as const, price: i + 1, quantity: 1 })),
    trades: [],
  };
  return { symbols: new Map([['AAPL', update]]), accounts: new Map() };
};

t.test('one serialisation per batch, the same bytes to every subscriber', async (t) => {
  const hub = new FeedHub(1 << 20, snapshot);
  const a = new FakeSocket();
  const b = new FakeSocket();
  hub.subscribe(hub.add(a, undefined), 'AAPL');
  hub.subscribe(hub.add(b, 'bob'), 'AAPL');
  await sent();
  hub.publish(md(11, 12));
  t.equal(a.sent.length, 2);
  t.equal(a.sent[1], b.sent[1], 'the very same buffer');
  t.match(a.messages(), [
    { type: 'snapshot', seq: 10 },
    { type: 'md', seq: 12 },
  ]);
});

t.test('a batch already in the snapshot is skipped; one straddling it sends a fresh snapshot', async (t) => {
  const hub = new FeedHub(1 << 20, snapshot);
  const a = new FakeSocket();
  seq = 10;
  hub.subscribe(hub.add(a, undefined), 'AAPL');
  await sent();
  hub.publish(md(9, 10));
  t.equal(a.sent.length, 1, 'seq 9-10 is in the snapshot at 10');
  seq = 12;
  hub.publish(md(10, 12));
  await sent();
  t.match(a.messages(), [{ type: 'snapshot' }, { type: 'snapshot', seq: 12 }]);
  hub.publish(md(13, 13));
  t.match(a.messages()[2], { type: 'md', seq: 13 });
});

t.test('a subscriber over the buffer limit is closed with 4008 and written to no more', async (t) => {
  const hub = new FeedHub(1_000, snapshot);
  const slow = new FakeSocket(true);
  const fast = new FakeSocket();
  hub.subscribe(hub.add(slow, undefined), 'AAPL');
  hub.subscribe(hub.add(fast, undefined), 'AAPL');
  await sent();
  for (let i = 0; i < 20; i++) hub.publish(md(100 + i, 100 + i, 10));
  t.equal(slow.closed?.code, SLOW_CONSUMER_CLOSE);
  t.match(slow.closed?.reason, /slow consumer: more than 1000 bytes/);
  t.ok(slow.sent.length < 20, 'nothing written after the drop');
  t.equal(fast.sent.length, 21, 'the fast one got every batch');
  t.equal(hub.dropped, 1);
});

t.test('account updates go to the account only', async (t) => {
  const hub = new FeedHub(1 << 20, snapshot);
  const bob = new FakeSocket();
  const eve = new FakeSocket();
  hub.add(bob, 'bob');
  hub.add(eve, 'eve');
  hub.publish({ symbols: new Map(), accounts: new Map([['bob', { type: 'account', seq: 5, events: [] }]]) });
  t.equal(bob.sent.length, 1);
  t.equal(eve.sent.length, 0);
});

t.test('the hub says what has a subscriber, and forgets what no longer has one', async (t) => {
  const hub = new FeedHub(1 << 20, snapshot);
  t.equal(hub.active, false, 'nobody yet');
  const anonymous = hub.add(new FakeSocket(), undefined);
  t.equal(hub.active, false, 'a connection without an account or a symbol wants nothing');
  hub.subscribe(anonymous, 'AAPL');
  hub.subscribe(anonymous, 'AAPL');
  t.equal(hub.active, true);
  t.ok(hub.wantsSymbol('AAPL'));
  t.notOk(hub.wantsSymbol('MSFT'));
  hub.unsubscribe(anonymous, 'AAPL');
  t.equal(hub.active, false, 'subscribing twice counts once');
  t.notOk(hub.wantsSymbol('AAPL'));
  const bob = hub.add(new FakeSocket(), 'bob');
  t.equal(hub.active, true);
  t.ok(hub.wantsAccount('bob'));
  t.notOk(hub.wantsAccount('eve'));
  hub.subscribe(bob, 'MSFT');
  hub.remove(bob);
  hub.remove(bob);
  t.equal(hub.active, false, 'a removed subscriber (twice: dropped, then closed) leaves nothing');
  t.notOk(hub.wantsAccount('bob'));
  t.notOk(hub.wantsSymbol('MSFT'));
  const slow = new FakeSocket(true);
  hub.subscribe(hub.add(slow, 'ana'), 'AAPL');
  await sent();
  for (let i = 0; i < 3 && slow.closed === undefined; i++) hub.publish(md(20 + i, 20 + i, 100_000));
  t.equal(slow.closed?.code, SLOW_CONSUMER_CLOSE);
  t.equal(hub.active, false, 'a dropped slow consumer wants nothing more');
});

/** Snapshots whose commits wait until `commitAll`. */
function heldSnapshots() {
  const commits: Array<() => void> = [];
  const pending = (symbol: string): DurableSnapshot => ({
    snapshot: book(symbol),
    durable: new Promise<void>((resolve) => commits.push(resolve)),
  });
  return { pending, commitAll: () => commits.forEach((commit) => commit()) };
}

t.test(
  'a snapshot is sent once the commands it shows are durable, and only to a subscriber still there',
  async (t) => {
    const { pending, commitAll } = heldSnapshots();
    const hub = new FeedHub(1 << 20, pending);
    const a = new FakeSocket();
    const b = new FakeSocket();
    seq = 30;
    hub.subscribe(hub.add(a, undefined), 'AAPL');
    const leaving = hub.add(b, undefined);
    hub.subscribe(leaving, 'AAPL');
    await sent();
    t.equal(a.sent.length, 0, 'nothing before its commit');
    hub.publish(md(29, 30));
    t.equal(a.sent.length, 0, 'a batch up to the snapshot is skipped meanwhile');
    hub.unsubscribe(leaving, 'AAPL');
    commitAll();
    await sent();
    t.match(a.messages(), [{ type: 'snapshot', seq: 30 }]);
    t.equal(b.sent.length, 0, 'not sent to one that unsubscribed meanwhile');
  },
);

t.test('a snapshot replaced while it waits for its commit still goes, before the newer one', async (t) => {
  const { pending, commitAll } = heldSnapshots();
  const hub = new FeedHub(1 << 20, pending);
  const a = new FakeSocket();
  seq = 40;
  hub.subscribe(hub.add(a, undefined), 'AAPL');
  // Its batch went on past the snapshot (as under steady orders): a fresh one is taken.
  seq = 45;
  hub.publish(md(39, 42));
  commitAll();
  await sent();
  t.match(a.messages(), [
    { type: 'snapshot', seq: 40 },
    { type: 'snapshot', seq: 45 },
  ]);
});
