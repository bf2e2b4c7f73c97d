import type { Logger } from '@tessera/kit';
import { Redis } from 'ioredis';
import type { TieBreak } from '../../core/standing.ts';
import type { RankingStore } from '../../ports.ts';
import { ShardedRankingStore } from './sharded-ranking-store.ts';

export interface ShardedRankingConfig {
  readonly tieBreak: TieBreak;
  readonly keyPrefix: string;
  /** How often to rebalance the newest period (0: never). */
  readonly rebalanceMs: number;
  readonly logger: Logger;
}

/**
 * The ranking over the instances of LEADERBOARD_REDIS_SHARDS (comma-separated URLs, the first
 * the top shard): one connection each, owned by the store returned, and a timer moving the bounds
 * of the newest period to even shares, which first finishes what a dead process left (moves past
 * their deadline, lapsed leases: ShardedRankingStore.recover). Every process may run it: leases
 * keep two rebalances from moving one player at once, their tokens keep a late one from writing.
 */
export async function openShardedRanking(urls: string, config: ShardedRankingConfig): Promise<RankingStore> {
  const connections: Redis[] = [];
  const closeConnections = () => Promise.all(connections.map((r) => r.quit().catch(() => r.disconnect())));
  try {
    for (const url of urls.split(',')) {
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
      redis.on('error', (error: Error) => config.logger.warn({ err: error }, 'redis shard connection error'));
      connections.push(redis);
      await redis.connect();
    }
  } catch (error) {
    await closeConnections();
    throw error;
  }
  const store = new ShardedRankingStore(connections, config);
  let running: Promise<unknown> = Promise.resolve();
  const timer =
    config.rebalanceMs > 0
      ? setInterval(() => {
          running = (async () => {
            const newest = (await store.periods()).at(-1);
            if (newest !== undefined) await store.rebalance(newest);
          })().catch((error: unknown) =>
            config.logger.warn({ err: error }, 'rebalancing the ranking failed'),
          );
        }, config.rebalanceMs).unref()
      : undefined;
  config.logger.info({ shards: connections.length }, 'leaderboard ranking sharded by score range');
  const close = store.close.bind(store);
  return Object.assign(store, {
    close: async () => {
      clearInterval(timer);
      await running;
      await close();
      await closeConnections();
    },
  });
}
