// An order's answer is sent once its batch is durable, and holds only what that batch made: a
// later batch, applied in memory while the writer thread commits this one, is not durable yet
// (a crash would lose it), so no answer may show its fills (review R2, session 15); nor may any
// event (the feed's, FIX's ExecutionReports) go out before its own batch is durable, nor show
// what a later batch did (the feed's best bid and ask, an accepted order), nor a feed snapshot
// before the commands it shows are durable.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import { WorkerJournal } from '../src/adapters/embedded/worker-journal.ts';
import { answerOrder } from '../src/http/fast-order.ts';
import type { FeedUpdates } from '../src/core/feed.ts';
import { ExchangeService, type OrderInput } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';

const buy: OrderInput = { symbol: 'AAPL', side: 'buy', price: 150, orderType: 'limit', quantity: 10 };
const sell: OrderInput = { ...buy, side: 'sell' };

/** The journal's last durable seq, read from the file by another connection. */
function durableSeqOf(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare('SELECT max(last_seq) AS seq FROM journal').get() as { seq: number }).seq;
  } finally {
    db.close();
  }
}

async function openService(t: Test, file = join(tempDir(t, 'tessera-answer-'), 'journal.db')) {
  const reader = openSqlite(file);
  const journal = new WorkerJournal({ file, synchronous: 'full', reader });
  let now = T0;
  const service = ExchangeService.open({
    rules: rules(),
    journal,
    now: () => now++,
    snapshotEvery: 1_000_000,
  });
  t.teardown(async () => {
    await service.close();
    reader.close();
  });
  await service.deposit('alice', 1_000_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  return service;
}

/** Runs `answer` for alice's buy, and bob's crossing sell in the next turn (the next batch). */
async function buyThenCrossingSell<T>(service: ExchangeService, answer: () => Promise<T>) {
  const seqOfBuy = service.seq + 1;
  const answered = answer().then((value) => ({ value, appliedUpTo: service.seq }));
  await nextTurn();
  service.submitOrder('bob', sell);
  const { value, appliedUpTo } = await answered;
  await service.durable();
  return { value, crossedBeforeAnswer: appliedUpTo > seqOfBuy };
}

t.test('the fast route answers the order as its own command left it', async (t) => {
  const service = await openService(t);
  const { value, crossedBeforeAnswer } = await buyThenCrossingSell(service, () =>
    answerOrder(service, 'alice', buy),
  );
  t.ok(crossedBeforeAnswer, 'the sell was applied before the buy was durable (the case under test)');
  t.match(JSON.parse(value.body), { filledQuantity: 0, remainingQuantity: 10, status: 'new' });
  t.match(service.order('alice', JSON.parse(value.body).id), { filledQuantity: 10 }, 'filled since');
});

t.test('placeOrder answers the order as its own command left it', async (t) => {
  const service = await openService(t);
  const { value, crossedBeforeAnswer } = await buyThenCrossingSell(service, () =>
    service.placeOrder('alice', buy),
  );
  t.ok(crossedBeforeAnswer, 'the sell was applied before the buy was durable (the case under test)');
  t.match(value, { filledQuantity: 0, remainingQuantity: 10, status: 'new' });
});

t.test('events go out only once their own batch is durable', async (t) => {
  const file = join(tempDir(t, 'tessera-answer-'), 'journal.db');
  const service = await openService(t, file);
  const durableSeq = () => durableSeqOf(file);

  const early: string[] = [];
  let delivered = 0;
  service.subscribe(({ events }) => {
    const durable = durableSeq();
    for (const event of events) {
      delivered++;
      if (event.seq > durable) early.push(`${event.type} of seq ${event.seq}, durable up to ${durable}`);
    }
  });
  const { crossedBeforeAnswer } = await buyThenCrossingSell(service, () => service.placeOrder('alice', buy));
  t.ok(crossedBeforeAnswer, 'the sell was applied before the buy was durable (the case under test)');
  t.ok(delivered > 0, `events were delivered (${delivered})`);
  t.same(early, [], 'no event delivered before its batch was durable');
});

t.test(
  'the feed shows each batch as it left the state: its best bid and ask, its accepted orders',
  async (t) => {
    const service = await openService(t);
    const updates: FeedUpdates[] = [];
    service.subscribe((batch) => updates.push(service.feedUpdates(batch)));
    const seqOfBuy = service.seq + 1;
    const { crossedBeforeAnswer } = await buyThenCrossingSell(service, () =>
      service.placeOrder('alice', buy),
    );
    t.ok(crossedBeforeAnswer, 'the sell was applied before the buy was durable (the case under test)');
    const ofBuy = updates.find((u) => u.symbols.get('AAPL')?.seq === seqOfBuy);
    t.ok(ofBuy !== undefined, "the buy's batch has its md update");
    t.same(
      ofBuy?.symbols.get('AAPL')?.l1,
      { bid: { price: 150, quantity: 10 }, ask: null },
      "best bid and ask after the buy's batch: the buy rests (the sell filled it only in the next)",
    );
    t.match(
      ofBuy?.accounts.get('alice')?.events,
      [{ type: 'order.accepted', order: { filledQuantity: 0, remainingQuantity: 10, status: 'new' } }],
      'the accepted order as its command left it',
    );
    const last = updates.at(-1)?.symbols.get('AAPL');
    t.same(last?.l1, { bid: null, ask: null }, "the sell's batch, delivered after, shows the book emptied");
  },
);

t.test('a feed snapshot is released only once the commands it shows are durable', async (t) => {
  const file = join(tempDir(t, 'tessera-answer-'), 'journal.db');
  const service = await openService(t, file);
  service.submitOrder('alice', buy);
  const { snapshot, durable } = service.feedSnapshot('AAPL');
  t.same(snapshot.bids, [{ price: 150, quantity: 10 }], 'it shows the buy, applied');
  t.ok(durableSeqOf(file) < snapshot.seq, 'which is not durable yet');
  await durable;
  t.ok(durableSeqOf(file) >= snapshot.seq, `durable up to ${snapshot.seq} when released`);
});
