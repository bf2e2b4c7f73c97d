import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by its SHA (EVALSHA), loaded again when the server does not know it (after a
 * restart or a SCRIPT FLUSH): one round trip in the usual case.
 */
export class LuaScript {
  readonly source: string;
  readonly #sha: string;

  constructor(source: string) {
    this.source = source;
    this.#sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
