/**
 * The rate-limit counters' Redis client when REDIS_URL is set: every replica of a service counts
 * against one budget, instead of each granting the whole of it. Its keys all start with the
 * prefix (ioredis' keyPrefix also prefixes the plugin's script keys).
 */
import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';

export interface RateLimitRedisOptions {
  readonly url: string;
  readonly keyPrefix: string;
  readonly logger: Logger;
}

export function openRateLimitRedis(options: RateLimitRedisOptions): Redis {
  const redis = new Redis(options.url, {
    keyPrefix: options.keyPrefix,
    // A request waits at most one retry for an outage: the limits then fail open (skipOnError).
    maxRetriesPerRequest: 1,
    // Connects in the background: a Redis still starting does not stop the process from serving.
    lazyConnect: false,
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    options.logger.warn({ err: error }, 'rate-limit Redis unavailable: limits are not enforced meanwhile');
  });
  redis.on('ready', () => {
    reported = false;
  });
  return redis;
}
