import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@tessera/kit';
import t from 'tap';
import { openShardedRanking } from '../../../src/adapters/redis/open-sharded-ranking.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';

const servers = await startRedisServers(t, 2);

t.test('opens the shards from their URLs and rebalances the newest period on a timer', async (t) => {
  const urls = servers.map((r) => `redis://127.0.0.1:${r.options.port}`).join(',');
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  const store = await openShardedRanking(urls, {
    tieBreak: 'shared',
    keyPrefix,
    rebalanceMs: 50,
    logger: createLogger({ level: 'silent', name: 'test' }),
  });
  await store.applyBatch(Array.from({ length: 20 }, (_, i) => win(i + 1, `u${i}`, i + 1)));
  // No bounds at first: all on the top shard, until the timer rebalances (a move adds on the new
  // shard before it removes from the old: wait for both).
  const sizes = () => Promise.all(servers.map((r) => r.zcard(`${keyPrefix}{2026-11}:rank`)));
  let seen = await sizes();
  for (let i = 0; i < 100 && (seen[0] !== 10 || seen[1] !== 10); i++) {
    await sleep(20);
    seen = await sizes();
  }
  t.same(seen, [10, 10], 'the lower half moved to the second shard');
  t.same(
    (await store.top('2026-11', 9, 2)).map((s) => s.rank),
    [10, 11],
  );
  await store.close();
  t.equal(await servers[0]!.ping(), 'PONG', 'the servers are not the store’s to stop');
});
