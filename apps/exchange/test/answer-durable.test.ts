// An order's answer is sent once its batch is durable, and holds only what that batch made: a
// later batch, applied in memory while the writer thread commits this one, is not durable yet
// (a crash would lose it), so no answer may show its fills (review R2, session 15); nor may any
// event (the feed's, FIX's ExecutionReports) go out before its own batch is durable.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import { WorkerJournal } from '../src/adapters/embedded/worker-journal.ts';
import { answerOrder } from '../src/http/fast-order.ts';
import { ExchangeService, type OrderInput } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';

const buy: OrderInput = { symbol: 'AAPL', side: 'buy', price: 150, orderType: 'limit', quantity: 10 };
const sell: OrderInput = { ...buy, side: 'sell' };

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
  const durableSeq = (): number => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return (db.prepare('SELECT max(last_seq) AS seq FROM journal').get() as { seq: number }).seq;
    } finally {
      db.close();
    }
  };
  const early: string[] = [];
  let delivered = 0;
  service.subscribe((events) => {
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
