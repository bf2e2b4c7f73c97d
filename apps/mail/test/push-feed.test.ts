import { DatabaseSync } from 'node:sqlite';
import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { SqlitePush } from '../src/adapters/embedded/sqlite-push.ts';
import type { PushRecord } from '../src/ports.ts';
import { openPushFeed } from '../src/push-feed.ts';

const event = (email_id: string) => ({ type: 'message.new' as const, email_id, folder_id: 'inbox' });
// Only where a wait may be too short without failing: before a publish, or a check that nothing came.
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
/** Waits until `count` records were sent; 10 s is a guard against a hang, not an expected wait. */
const sentCount = (sent: readonly PushRecord[], count: number) =>
  pollUntil(`${count} records sent`, () => Promise.resolve(sent.length >= count), {
    ms: 10_000,
    intervalMs: 1,
  });

function feedOf(push: SqlitePush, user: string, since?: number) {
  const sent: PushRecord[] = [];
  const feed = openPushFeed(push, user, {
    ...(since === undefined ? {} : { since }),
    catchUpMs: 10_000,
    send: (r) => sent.push(r),
    onError: (e) => {
      throw e;
    },
  });
  return { sent, feed };
}

t.test('since: the backlog in pages, then live, in order, each once', async (t) => {
  const push = new SqlitePush(new DatabaseSync(':memory:'));
  for (let i = 0; i < 250; i++) await push.publish('alice', event(`m${i}`));
  await push.publish('bob', event('not-alice'));
  const { sent, feed } = feedOf(push, 'alice', 0);
  t.teardown(() => feed.close());
  await sentCount(sent, 250);
  t.equal(sent.length, 250, 'three pages of backlog');
  await push.publish('alice', event('live'));
  await sentCount(sent, 251);
  t.equal(sent.length, 251);
  t.equal(sent.at(-1)?.event.email_id, 'live');
  t.ok(
    sent.every((r, i) => i === 0 || r.seq > (sent[i - 1]?.seq ?? 0)),
    'increasing seq, no duplicate',
  );
  t.notOk(sent.some((r) => r.event.email_id === 'not-alice'));
});

t.test('without since: only what comes after; closed: nothing more', async (t) => {
  const push = new SqlitePush(new DatabaseSync(':memory:'));
  await push.publish('alice', event('old'));
  const { sent, feed } = feedOf(push, 'alice');
  await tick();
  await push.publish('alice', event('new'));
  await sentCount(sent, 1);
  t.same(
    sent.map((r) => r.event.email_id),
    ['new'],
  );
  feed.close();
  await push.publish('alice', event('after-close'));
  await tick();
  t.equal(sent.length, 1);
});
