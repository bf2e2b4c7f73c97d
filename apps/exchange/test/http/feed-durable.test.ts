// The WebSocket feed shows only durable state: with the journal's writer thread the next batch is
// applied while this one is written, and a crash then loses it, so no md update, account event
// or snapshot may show a state beyond the batch it goes out for (its L1, the order views).
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import { WorkerJournal } from '../../src/adapters/embedded/worker-journal.ts';
import { FeedHub, type FeedSocket } from '../../src/http/feed-hub.ts';
import { ExchangeService, type OrderInput } from '../../src/service.ts';
import { rules, T0 } from '../core/exchange-rules.ts';

const buy: OrderInput = { symbol: 'AAPL', side: 'buy', price: 150, orderType: 'limit', quantity: 10 };
const sell: OrderInput = { ...buy, side: 'sell' };

interface Sent {
  readonly message: { type: string; seq?: number } & Record<string, unknown>;
  /** The journal's durable seq when the message was written. */
  readonly durable: number;
}

/** Records every message with the journal's durable seq at the moment it is written. */
class RecordingSocket implements FeedSocket {
  readonly sent: Sent[] = [];
  readonly bufferedAmount = 0;
  readonly #durable: () => number;
  constructor(durable: () => number) {
    this.#durable = durable;
  }
  send(data: Buffer): void {
    this.sent.push({ message: JSON.parse(data.toString()) as Sent['message'], durable: this.#durable() });
  }
  close(): void {}
  of(type: string): Sent['message'][] {
    return this.sent.filter((s) => s.message.type === type).map((s) => s.message);
  }
}

async function openFeed(t: Test) {
  const file = join(tempDir(t, 'tessera-feed-durable-'), 'journal.db');
  const reader = openSqlite(file);
  const journal = new WorkerJournal({ file, synchronous: 'full', reader });
  let now = T0;
  const service = ExchangeService.open({ rules: rules(), journal, now: () => now++ });
  // The feed route's wiring (src/http/feed-route.ts).
  const hub = new FeedHub(1 << 20, (symbol) => service.feedSnapshot(symbol));
  const stop = service.subscribe(
    (batch) => hub.publish(service.feedUpdates(batch, hub)),
    () => hub.active,
  );
  t.teardown(async () => {
    stop();
    await service.close();
    reader.close();
  });
  await service.deposit('alice', 1_000_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  const durable = (): number => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return (db.prepare('SELECT max(last_seq) AS seq FROM journal').get() as { seq: number }).seq;
    } finally {
      db.close();
    }
  };
  return { service, hub, socket: new RecordingSocket(durable) };
}

/** Alice's buy rests (its batch), bob's crossing sell lands in the next batch and fills it. */
async function buyThenCrossingSell(
  service: ExchangeService,
  hooks: { afterBuy?: () => void; afterSell?: () => void } = {},
) {
  const seqOfBuy = service.seq + 1;
  const answered = service.placeOrder('alice', buy).then((view) => ({ view, appliedUpTo: service.seq }));
  hooks.afterBuy?.();
  await nextTurn();
  service.submitOrder('bob', sell);
  hooks.afterSell?.();
  const { view, appliedUpTo } = await answered;
  await service.durable();
  return { buyId: view.id, seqOfBuy, crossedBeforeDurable: appliedUpTo > seqOfBuy };
}

const early = (sent: readonly Sent[]): string[] =>
  sent
    .filter((s) => (s.message.seq ?? 0) > s.durable)
    .map((s) => `${s.message.type} of seq ${s.message.seq}, durable up to ${s.durable}`);

t.test("an md update shows its own batch's L1, not a later batch's fill", async (t) => {
  const { service, hub, socket } = await openFeed(t);
  hub.subscribe(hub.add(socket, undefined), 'AAPL');
  const { seqOfBuy, crossedBeforeDurable } = await buyThenCrossingSell(service);
  t.ok(crossedBeforeDurable, 'the sell was applied before the buy was durable (the case under test)');
  const updates = socket.of('md');
  t.match(
    updates[0],
    { seq: seqOfBuy, l1: { bid: { price: 150, quantity: 10 }, ask: null } },
    'the buy rests',
  );
  t.match(updates[1], { seq: seqOfBuy + 1, l1: { bid: null, ask: null } }, 'then the fill');
  t.same(early(socket.sent), [], 'nothing beyond the durable seq');
});

t.test('account events show the orders as their own batch left them', async (t) => {
  const { service, hub, socket } = await openFeed(t);
  hub.add(socket, 'alice');
  const { buyId, crossedBeforeDurable } = await buyThenCrossingSell(service);
  t.ok(crossedBeforeDurable, 'the sell was applied before the buy was durable (the case under test)');
  const events = socket.of('account').flatMap((m) => m['events'] as Array<Record<string, unknown>>);
  t.match(events, [
    { type: 'order.accepted', order: { id: buyId, status: 'new', filledQuantity: 0 } },
    { type: 'execution' },
    { type: 'order.completed', order: { id: buyId, status: 'completed', filledQuantity: 10 } },
  ]);
  t.same(early(socket.sent), [], 'nothing beyond the durable seq');
});

t.test('a snapshot asked for while a batch is written goes out once that batch is durable', async (t) => {
  const { service, hub, socket } = await openFeed(t);
  const subscriber = hub.add(socket, undefined);
  // Subscribes just after the crossing sell is applied, before its batch is durable.
  const { seqOfBuy, crossedBeforeDurable } = await buyThenCrossingSell(service, {
    afterSell: () => hub.subscribe(subscriber, 'AAPL'),
  });
  t.ok(crossedBeforeDurable, 'the sell was applied before the buy was durable (the case under test)');
  t.same(early(socket.sent), [], 'nothing beyond the durable seq');
  const snapshots = socket.of('snapshot');
  t.equal(snapshots.length, 1, 'one snapshot');
  t.match(
    snapshots[0],
    { seq: seqOfBuy + 1, l1: { bid: null, ask: null }, bids: [], asks: [] },
    'after the fill',
  );
  t.same(socket.of('md'), [], 'no update: both batches are in the snapshot');
});

t.test('a snapshot comes before every later update; with nothing in flight, without waiting', async (t) => {
  const { service, hub, socket } = await openFeed(t);
  const subscriber = hub.add(socket, undefined);
  hub.subscribe(subscriber, 'AAPL');
  await nextTurn();
  t.match(
    socket.of('snapshot'),
    [{ seq: service.seq }],
    'nothing in flight: sent without waiting for orders',
  );
  // Asked for again while the buy's batch gathers: it holds the buy, and the sell's update follows.
  const { seqOfBuy } = await buyThenCrossingSell(service, {
    afterBuy: () => hub.subscribe(subscriber, 'AAPL'),
  });
  const order = socket.sent.map((s) => `${s.message.type}@${s.message.seq}`);
  t.same(order, [`snapshot@${seqOfBuy - 1}`, `snapshot@${seqOfBuy}`, `md@${seqOfBuy + 1}`]);
  t.match(socket.of('snapshot')[1], { bids: [{ price: 150, quantity: 10 }] }, 'the buy rests in it');
  t.same(early(socket.sent), [], 'nothing beyond the durable seq');
});
