// Fenced leases: a process that stalls past its lease and wakes up cannot write over what the
// next holder wrote. The stalled process is a store whose connection to one instance goes
// through a hook the test holds (the write it sent waits there) and then releases.
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { homeShard } from '../../../src/adapters/redis/shard-layout.ts';
import { ShardedRankingStore } from '../../../src/adapters/redis/sharded-ranking-store.ts';
import type { Win } from '../../../src/core/win.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';
import { stallHolder } from './stalled-holder.ts';

t.setTimeout(120_000);

const servers = await startRedisServers(t, 3);
const PERIOD = '2026-11';

async function where(prefix: string, user: string): Promise<(number | null)[]> {
  const scores = await Promise.all(servers.map((r) => r.zscore(`${prefix}{${PERIOD}}:rank`, user)));
  return scores.map((s) => (s === null ? null : Number(s)));
}

/**
 * `user` is on the bottom shard (2) with 1 point. The stalled store applies `stalled`; its first
 * write to shard `held` (not the player's home) waits at the hook until the other store applied
 * `next` past the lapsed lease, then goes through.
 */
async function stallOn(t: Test, user: string, held: number, stalled: Win, next: Win) {
  const prefix = `t${randomBytes(4).toString('hex')}:lb:`;
  const options = { tieBreak: 'shared', keyPrefix: prefix, initialBounds: [10, 5] } as const;
  const other = new ShardedRankingStore(servers, options);
  await other.applyWin(win(1, user, 1));
  await other.applyWin(win(2, 'b', 12));
  const { hook, late } = await stallHolder(t, servers, held, options, stalled);
  const answer = await other.applyWin(next);
  hook.release();
  await late;
  // The other store gives its lease back with its next home script or a moment later: now.
  await other.settle();
  const home = servers[homeShard(user, servers.length)]!;
  t.equal(await home.hlen(`${prefix}{${PERIOD}}:lease`), 0, 'the stalled holder left no lease behind');
  return { prefix, other, answer };
}

t.test('a holder that stalled past its lease is fenced off where the next holder wrote', async (t) => {
  // `a` (home 1) stays on shard 2: the stalled write is a plain put there.
  const { prefix, other, answer } = await stallOn(t, 'a', 2, win(3, 'a', 1), win(4, 'a', 1));
  t.same(answer, { userId: 'a', score: 3, rank: 2 }, 'the next holder placed the total of both wins');
  t.same(await where(prefix, 'a'), [null, null, 3], 'the stalled write of the older total (2) was refused');
  t.same(await other.standing(PERIOD, 'a'), { userId: 'a', score: 3, rank: 2 });
});

t.test(
  'a stalled move is fenced off too: the player stays on one shard, with the newest total',
  async (t) => {
    // `g` (home 0) moves from shard 2 to shard 1: the stalled add there waits at the hook while the
    // next holder scrubs `g` onto shard 1 with the total of both wins; then it arrives, older.
    const { prefix, other, answer } = await stallOn(t, 'g', 1, win(3, 'g', 5), win(4, 'g', 1));
    t.same(answer, { userId: 'g', score: 7, rank: 2 });
    t.same(await where(prefix, 'g'), [null, 7, null], 'on shard 1 alone, with the newest total');
    t.same(await other.top(PERIOD, 0, 10), [
      { userId: 'b', score: 12, rank: 1 },
      { userId: 'g', score: 7, rank: 2 },
    ]);
    const moving = await Promise.all(servers.map((r) => r.zcard(`${prefix}{${PERIOD}}:moving`)));
    t.same(moving, [0, 0, 0], 'no move record left');
  },
);
