import t, { type Test } from 'tap';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit/sqlite';
import { SqliteQueue } from '../../../src/adapters/embedded/sqlite-queue.ts';
import { FakeClock, tempDir } from '../../helpers/mail.ts';

function open(t: Test, file: string, clock: FakeClock) {
  const db = openSqlite(file);
  t.teardown(() => {
    if (db.isOpen) db.close();
  });
  return { db, queue: new SqliteQueue(db, clock.now) };
}

t.test('enqueue is idempotent by id; claim leases; ack removes', async (t) => {
  const clock = new FakeClock();
  const { queue } = open(t, join(tempDir(t), 'q.db'), clock);
  await queue.enqueue('mail.inbound', 'a', { n: 1 });
  await queue.enqueue('mail.inbound', 'a', { n: 2 });
  await queue.enqueue('mail.inbound', 'b', { n: 3 });
  await queue.enqueue('mail.outbound', 'a', { n: 4 });
  const jobs = await queue.claim<{ n: number }>('mail.inbound', { limit: 10, leaseMs: 1000 });
  t.same(
    jobs.map((j) => [j.id, j.payload.n, j.attempts]),
    [
      ['a', 1, 0],
      ['b', 3, 0],
    ],
  );
  t.same(
    await queue.claim('mail.inbound', { limit: 10, leaseMs: 1000 }),
    [],
    'leased jobs are not handed out twice',
  );
  await queue.ack('mail.inbound', 'a');
  clock.advance(1000);
  const again = await queue.claim('mail.inbound', { limit: 10, leaseMs: 1000 });
  t.same(
    again.map((j) => j.id),
    ['b'],
    'an unacked job comes back when its lease runs out',
  );
  t.same(await queue.stats('mail.inbound'), { size: 1, oldestAgeMs: 1000 });
});

t.test('retry counts the attempt and waits until notBefore', async (t) => {
  const clock = new FakeClock();
  const { queue } = open(t, join(tempDir(t), 'q.db'), clock);
  await queue.enqueue('mail.outbound', 'x', {});
  await queue.claim('mail.outbound', { limit: 1, leaseMs: 10 });
  await queue.retry('mail.outbound', 'x', clock.ms + 500);
  clock.advance(499);
  t.same(await queue.claim('mail.outbound', { limit: 1, leaseMs: 10 }), []);
  clock.advance(1);
  t.match(await queue.claim('mail.outbound', { limit: 1, leaseMs: 10 }), [{ id: 'x', attempts: 1 }]);
});

t.test('jobs survive closing and reopening the file', async (t) => {
  const clock = new FakeClock();
  const file = join(tempDir(t), 'q.db');
  const first = open(t, file, clock);
  await first.queue.enqueue('mail.changes', 'c1', { v: 1 });
  first.db.close();
  const second = open(t, file, clock);
  t.match(await second.queue.claim('mail.changes', { limit: 5, leaseMs: 10 }), [
    { id: 'c1', payload: { v: 1 } },
  ]);
});

t.test('onReady signals enqueues of its topic only', async (t) => {
  const clock = new FakeClock();
  const { queue } = open(t, join(tempDir(t), 'q.db'), clock);
  let signals = 0;
  const off = queue.onReady('mail.inbound', () => signals++);
  await queue.enqueue('mail.inbound', 'a', {});
  await queue.enqueue('mail.outbound', 'a', {});
  off();
  await queue.enqueue('mail.inbound', 'b', {});
  t.equal(signals, 1);
});

t.test('acks of one turn are deleted together, each of its own topic; later acks still work', async (t) => {
  const clock = new FakeClock();
  const { queue } = open(t, join(tempDir(t), 'q.db'), clock);
  for (const id of ['a', 'b', 'c', 'd']) await queue.enqueue('mail.inbound', id, {});
  await queue.enqueue('mail.changes', 'a', {});
  const lease = { limit: 3, leaseMs: 1000 };
  t.same(
    (await queue.claim('mail.inbound', lease)).map((j) => j.id),
    ['a', 'b', 'c'],
    'a batch leased in order',
  );
  t.same(
    (await queue.claim('mail.inbound', lease)).map((j) => j.id),
    ['d'],
    'the leased ones are not handed out again',
  );
  await Promise.all([
    queue.ack('mail.inbound', 'a'),
    queue.ack('mail.inbound', 'c'),
    queue.ack('mail.changes', 'b'), // no such job on that topic: the inbound b stays
  ]);
  t.match(await queue.stats('mail.inbound'), { size: 2 });
  t.match(await queue.stats('mail.changes'), { size: 1 });
  await queue.ack('mail.inbound', 'b');
  await queue.ack('mail.changes', 'a');
  t.match(await queue.stats('mail.changes'), { size: 0 });
  clock.advance(1000);
  t.same(
    (await queue.claim('mail.inbound', lease)).map((j) => j.id),
    ['d'],
    'only the one not acked comes back',
  );
});
