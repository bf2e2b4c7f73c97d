// Which moves in flight a read waits for: only one whose entry in flight the read counts (above
// a rank's score, or as low as a page's last entry), since only such an entry can count its
// player twice. The move is set up by hand in the state its first step leaves (the entry on its
// new shard under a `moving` record, still on its old one), with a deadline far off, so nobody
// takes it over while the test looks.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import t from 'tap';
import { LuaScript } from '../../../src/adapters/redis/lua-script.ts';
import {
  RANGE_LOOK,
  RANGE_MOVE_IN,
  RANGE_MOVE_OUT,
  RANGE_PUT,
  STEPS_KEPT,
} from '../../../src/adapters/redis/shard-range-scripts.ts';
import { ShardedKeys } from '../../../src/adapters/redis/sharded-context.ts';
import { ShardedRankingStore } from '../../../src/adapters/redis/sharded-ranking-store.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';

t.setTimeout(120_000);

const servers = await startRedisServers(t, 3);
const PERIOD = '2026-11';

/** `top` 20 on shard 0, `mid` 7 on shard 1, `low` 1 and `m` 2 on shard 2; `m` half-way to 15 on shard 0. */
async function halfMoved() {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  const key = (part: string) => `${keyPrefix}{${PERIOD}}:${part}`;
  const store = new ShardedRankingStore(servers, { tieBreak: 'shared', keyPrefix, initialBounds: [10, 5] });
  await store.applyWin(win(1, 'top', 20));
  await store.applyWin(win(2, 'mid', 7));
  await store.applyWin(win(3, 'low', 1));
  await store.applyWin(win(4, 'm', 2));
  await servers[0]!.zadd(key('rank'), 15, 'm');
  await servers[0]!.zadd(key('moving'), Date.now() + 60_000, 'm');
  await servers[0]!.hincrby(key('ctl'), 'epoch', 1);
  /** The move's last two steps: the entry removed from shard 2, the record cleared. */
  const finish = async () => {
    await servers[2]!.zrem(key('rank'), 'm');
    await servers[2]!.hincrby(key('ctl'), 'epoch', 1);
    await servers[0]!.zrem(key('moving'), 'm');
    await servers[0]!.hincrby(key('ctl'), 'epoch', 1);
  };
  const inFlight = () => servers[0]!.zcard(key('moving'));
  return { store, finish, inFlight };
}

async function scriptCalls(r: Redis): Promise<number> {
  const info = await r.info('commandstats');
  return [...info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
}

t.test('a read is not retried by a move its answer does not count', async (t) => {
  const { store, inFlight } = await halfMoved();
  // Above 15 on every shard: `m` counted on neither. Without the rule the read would wait out the
  // lease and then take the move over (clearing the record checked below).
  t.same(await store.standing(PERIOD, 'top'), { userId: 'top', score: 20, rank: 1 });
  t.same(await store.top(PERIOD, 0, 1), [{ userId: 'top', score: 20, rank: 1 }]);
  t.equal(await inFlight(), 1, 'answered with the move still in flight');
});

t.test('a read is retried by a move whose entry in flight it counts', async (t) => {
  const { store, finish, inFlight } = await halfMoved();
  // Above 1, `m` is counted on shard 0 (15) and on shard 2 (2): rank 5 if the read took it.
  let settled = false;
  const before = await scriptCalls(servers[2]!);
  const rank = store.standing(PERIOD, 'low').finally(() => (settled = true));
  const page = store.top(PERIOD, 0, 10);
  // Two reads of two looks each: a fifth script on shard 2 means a read was retried.
  for (let i = 0; i < 2_000 && !settled && (await scriptCalls(servers[2]!)) - before < 5; i++) await sleep(5);
  t.equal(await inFlight(), 1, 'the reads went on while the move was in flight');
  await finish();
  t.same(await rank, { userId: 'low', score: 1, rank: 4 }, '`m` counted once, once its move ended');
  t.same(
    (await page).map((s) => [s.userId, s.score, s.rank]),
    [
      ['top', 20, 1],
      ['m', 15, 2],
      ['mid', 7, 3],
      ['low', 1, 4],
    ],
  );
});

t.test(
  'a look tells whether a step of a move since an earlier look touched an entry above a score',
  async (t) => {
    const keys = new ShardedKeys(`t${randomBytes(4).toString('hex')}:lb:`);
    const r = servers[0]!;
    const look = new LuaScript(RANGE_LOOK);
    const moveIn = new LuaScript(RANGE_MOVE_IN);
    const moveOut = new LuaScript(RANGE_MOVE_OUT);
    /** `changed` of a look asking about entries above `above` since `epoch`, and the epoch now. */
    const since = async (epoch: string, above: number) => {
      const reply = (await look.run(r, keys.look(PERIOD), ['+inf', '', epoch, above])) as (string | number)[];
      return { changed: reply[10], epoch: String(reply[0]) };
    };
    const { epoch: first } = await since('', 0);
    let token = Date.now() * 1_000;
    await moveIn.run(r, keys.range(PERIOD), [60_000, 'u', 3, ++token]);
    t.equal((await since(first, 10)).changed, 0, 'an entry added at 3 changes no count above 10');
    t.equal((await since(first, 2)).changed, 1, 'it changes the count above 2');
    const { epoch: second } = await since('', 0);
    await moveOut.run(r, keys.range(PERIOD), ['u', ++token]);
    t.equal((await since(second, 3)).changed, 0, 'removed at 3: not above 3');
    t.equal((await since(second, 2)).changed, 1, 'removed at 3: above 2');
    const { epoch: third } = await since('', 0);
    for (let i = 0; i <= STEPS_KEPT; i++) await moveOut.run(r, keys.range(PERIOD), ['nobody', ++token]);
    t.equal(
      (await since(third, 1_000)).changed,
      1,
      'steps older than those kept: changed, whatever they were',
    );
  },
);

t.test('a player joining a shard is a step for pages only, as high as its entry', async (t) => {
  const keys = new ShardedKeys(`t${randomBytes(4).toString('hex')}:lb:`);
  const r = servers[0]!;
  const look = new LuaScript(RANGE_LOOK);
  const put = new LuaScript(RANGE_PUT);
  const changed = async (epoch: string, above: number, joinedAbove: number | '') =>
    (
      (await look.run(r, keys.look(PERIOD), ['+inf', '', epoch, above, joinedAbove])) as (string | number)[]
    )[10];
  const epoch = async () =>
    String(((await look.run(r, keys.look(PERIOD), ['+inf', '', '', 0])) as string[])[0]);
  let token = Date.now() * 1_000;
  const first = await epoch();
  await put.run(r, keys.range(PERIOD), ['u', 5, ++token]);
  t.equal(await changed(first, 2, 2), 1, 'u joined at 5: a page as low as 3 is read again');
  t.equal(await changed(first, 5, 5), 0, 'not one above 5');
  t.equal(await changed(first, -1, 5), 0, 'nor a short page whose last entry is above 5');
  t.equal(await changed(first, -1, 4), 1, 'but one whose last entry is 5');
  t.equal(await changed(first, 2, ''), 0, 'nor a rank: a player joining is counted once or not yet');
  const second = await epoch();
  await put.run(r, keys.range(PERIOD), ['u', 9, token + 1]);
  t.equal(await epoch(), second, 'a score growing in place is no step');
});
