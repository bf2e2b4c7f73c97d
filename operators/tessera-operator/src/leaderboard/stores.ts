/**
 * What a board keeps on its backing servers, made and removed by the operator: the win log's
 * stream and match bucket on NATS (made before any api pod starts, with the api's own settings),
 * and on deletion the stream and bucket, the Redis keys under the board's prefix and its Cassandra
 * keyspace. The servers' URLs come from the Secrets the board names, read when needed; each call
 * opens short-lived connections (a board is reconciled rarely) that give up quickly when a server
 * cannot be reached, so the reconcile reports it instead of hanging.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  deleteWinLogStream,
  ensureWinLogStream,
  parseCassandraUrl,
  winLogStreamOptions,
} from '@tessera/leaderboard/stores';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import type { LeaderboardPorts } from './ports.ts';
import { storeNames } from './store-names.ts';
import type { Leaderboard } from './types.ts';

const CONNECT_TIMEOUT_MS = 5_000;
const SCAN_COUNT = 1_000;

type SecretRef = { readonly secretKeyRef: { readonly name: string; readonly key: string } };

/** A store the board names could not be reached or refused the operator (the reconcile retries). */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

export function boardStores(config: KubeConfig): LeaderboardPorts['stores'] {
  const core = config.makeApiClient(CoreV1Api);

  async function url(
    board: Leaderboard,
    ref: SecretRef | undefined,
    what: string,
  ): Promise<string | undefined> {
    if (ref === undefined) return undefined;
    const { name, key } = ref.secretKeyRef;
    const secret = await core.readNamespacedSecret({ namespace: board.metadata.namespace, name });
    const encoded = secret.data?.[key];
    if (encoded === undefined) throw new StoreUnavailableError(`${what}: Secret ${name} has no key ${key}`);
    return Buffer.from(encoded, 'base64').toString('utf8').trim();
  }

  const names = (board: Leaderboard) => storeNames(board.metadata.namespace, board.metadata.name);

  async function withNats<T>(natsUrl: string, use: (nc: NatsConnection) => Promise<T>): Promise<T> {
    let nc: NatsConnection;
    try {
      nc = await connect({
        servers: natsUrl.split(','),
        name: 'tessera-operator',
        timeout: CONNECT_TIMEOUT_MS,
        reconnect: false,
      });
    } catch (error) {
      throw new StoreUnavailableError(`NATS at ${natsUrl}: ${(error as Error).message}`, { cause: error });
    }
    try {
      return await use(nc);
    } finally {
      await nc.close();
    }
  }

  async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    redis.on('error', () => {}); // reported through the failed command
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw new StoreUnavailableError(`Redis: ${(error as Error).message}`, { cause: error });
    }
    try {
      // A glob pattern: the prefix's own glob characters are escaped.
      const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
      let deleted = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', SCAN_COUNT);
        if (keys.length > 0) deleted += await redis.unlink(...keys);
        cursor = next;
      } while (cursor !== '0');
      return deleted;
    } finally {
      await redis.quit().catch(() => redis.disconnect());
    }
  }

  async function dropKeyspace(cassandraUrl: string, keyspace: string): Promise<void> {
    const { contactPoints, dataCenter } = parseCassandraUrl(cassandraUrl);
    const client = new cassandra.Client({
      contactPoints,
      localDataCenter: dataCenter,
      socketOptions: { connectTimeout: CONNECT_TIMEOUT_MS },
    });
    try {
      await client.connect();
    } catch (error) {
      await client.shutdown().catch(() => {});
      throw new StoreUnavailableError(`Cassandra: ${(error as Error).message}`, { cause: error });
    }
    try {
      // The keyspace name is the operator's own (store-names.ts: lower case letters, digits, _).
      await client.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
    } finally {
      await client.shutdown();
    }
  }

  return {
    async ensureWinLog(board) {
      const natsUrl = await url(board, board.spec.connections?.nats, 'NATS');
      if (natsUrl === undefined) return false;
      const options = winLogStreamOptions(names(board));
      await withNats(natsUrl, async (nc) => {
        await ensureWinLogStream(nc, options);
      });
      return true;
    },

    async deleteData(board) {
      const store = names(board);
      const connections = board.spec.connections ?? {};
      const natsUrl = await url(board, connections.nats, 'NATS');
      if (natsUrl !== undefined) {
        const options = winLogStreamOptions(store);
        await withNats(natsUrl, (nc) => deleteWinLogStream(nc, options));
      }
      const redisUrl = await url(board, connections.redis, 'Redis');
      if (redisUrl !== undefined) await deleteRedisKeys(redisUrl, store.LEADERBOARD_REDIS_PREFIX!);
      const cassandraUrl = await url(board, connections.cassandra, 'Cassandra');
      if (cassandraUrl !== undefined) await dropKeyspace(cassandraUrl, store.LEADERBOARD_KEYSPACE!);
    },
  };
}
