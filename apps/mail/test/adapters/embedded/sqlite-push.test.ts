import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit/sqlite';
import { SqlitePush } from '../../../src/adapters/embedded/sqlite-push.ts';

function push(t: Test): SqlitePush {
  const db = openSqlite(':memory:');
  t.teardown(() => db.close());
  return new SqlitePush(db);
}

t.test('subscribers get their own user events; the backlog answers polls', async (t) => {
  const p = push(t);
  const seen: string[] = [];
  const off = p.subscribe('alice', (r) => seen.push(r.event.email_id));
  await p.publish('alice', { type: 'message.new', email_id: 'e1' });
  await p.publish('bob', { type: 'message.new', email_id: 'e2' });
  await p.publish('alice', { type: 'message.deleted', email_id: 'e3' });
  off();
  await p.publish('alice', { type: 'message.new', email_id: 'e4' });
  t.same(seen, ['e1', 'e3']);
  const backlog = await p.poll('alice', 0, { waitMs: 0, limit: 10 });
  t.same(
    backlog.map((r) => r.event.email_id),
    ['e1', 'e3', 'e4'],
  );
  const after = await p.poll('alice', backlog[0]?.seq ?? 0, { waitMs: 0, limit: 1 });
  t.same(
    after.map((r) => r.event.email_id),
    ['e3'],
    'since and limit',
  );
});

t.test('a long poll waits for the next event, or times out empty, or ends on abort', async (t) => {
  const p = push(t);
  const waiting = p.poll('alice', 0, { waitMs: 60_000, limit: 10 });
  setTimeout(() => void p.publish('alice', { type: 'message.new', email_id: 'late' }), 20);
  t.match(await waiting, [{ event: { email_id: 'late' } }]);
  const started = Date.now();
  t.same(await p.poll('bob', 0, { waitMs: 50, limit: 10 }), []);
  t.ok(Date.now() - started >= 45, 'waited');
  const controller = new AbortController();
  const aborted = p.poll('bob', 0, { waitMs: 60_000, limit: 10, signal: controller.signal });
  controller.abort();
  t.same(await aborted, []);
});

t.test('observers see every committed record with its user; announce tells subscribers only', async (t) => {
  const db = openSqlite(':memory:');
  t.teardown(() => db.close());
  const writer = new SqlitePush(db);
  const listener = new SqlitePush(db);
  const observed: [string, string][] = [];
  const off = writer.observe((userId, record) => {
    observed.push([userId, record.event.email_id]);
    listener.announce(userId, record);
  });
  const heard: number[] = [];
  t.teardown(listener.subscribe('alice', (record) => heard.push(record.seq)));
  await writer.publish('alice', { type: 'message.new', email_id: 'e1' });
  await writer.publish('bob', { type: 'message.new', email_id: 'e2' });
  off();
  await writer.publish('alice', { type: 'message.new', email_id: 'e3' });
  t.same(observed, [
    ['alice', 'e1'],
    ['bob', 'e2'],
  ]);
  const backlog = await listener.poll('alice', 0, { waitMs: 0, limit: 10 });
  t.same(heard, [backlog[0]?.seq], "the other connection's record reached this one's subscriber");
  t.same(
    backlog.map((r) => r.event.email_id),
    ['e1', 'e3'],
    'announce wrote nothing: the backlog has each record once',
  );
});

t.test('publishAll: several users in one write, each told in order, observers see them all', async (t) => {
  const p = push(t);
  const heard: [string, string][] = [];
  t.teardown(p.subscribe('alice', (r) => heard.push(['alice', r.event.email_id])));
  t.teardown(p.subscribe('bob', (r) => heard.push(['bob', r.event.email_id])));
  const observed: string[] = [];
  t.teardown(p.observe((userId, r) => observed.push(`${userId}:${r.event.email_id}`)));
  await p.publishAll([]);
  await p.publishAll([
    { userId: 'alice', event: { type: 'message.new', email_id: 'a1', folder_id: 'inbox' } },
    { userId: 'bob', event: { type: 'message.new', email_id: 'b1', folder_id: 'inbox' } },
    { userId: 'alice', event: { type: 'message.new', email_id: 'a2', folder_id: 'junk' } },
  ]);
  t.same(heard, [
    ['alice', 'a1'],
    ['bob', 'b1'],
    ['alice', 'a2'],
  ]);
  t.same(observed, ['alice:a1', 'bob:b1', 'alice:a2']);
  const alice = await p.poll('alice', 0, { waitMs: 0, limit: 10 });
  t.same(
    alice.map((r) => [r.event.email_id, r.event.folder_id]),
    [
      ['a1', 'inbox'],
      ['a2', 'junk'],
    ],
  );
  const [bob] = await p.poll('bob', 0, { waitMs: 0, limit: 10 });
  t.ok(
    (alice[0]?.seq ?? 0) < (bob?.seq ?? 0) && (bob?.seq ?? 0) < (alice[1]?.seq ?? 0),
    'seq in the order given',
  );
});

t.test('publishAll is all or none: one event refused, none of the batch is kept or told', async (t) => {
  const db = openSqlite(':memory:');
  t.teardown(() => db.close());
  const p = new SqlitePush(db);
  db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON push_events
    WHEN json_extract(NEW.event, '$.email_id') = 'bad' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
  const heard: string[] = [];
  t.teardown(p.subscribe('alice', (r) => heard.push(r.event.email_id)));
  // A write beside it in the same group commit is kept.
  const beside = p.publish('alice', { type: 'message.new', email_id: 'beside' });
  await t.rejects(
    p.publishAll([
      { userId: 'alice', event: { type: 'message.new', email_id: 'a1' } },
      { userId: 'alice', event: { type: 'message.new', email_id: 'bad' } },
    ]),
    /refused/,
  );
  await beside;
  t.same(heard, ['beside']);
  t.same(
    (await p.poll('alice', 0, { waitMs: 0, limit: 10 })).map((r) => r.event.email_id),
    ['beside'],
  );
});
