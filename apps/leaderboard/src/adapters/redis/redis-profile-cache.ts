import type { Redis } from 'ioredis';
import type { Profile, ProfileStore } from '../../ports.ts';
import { LuaScript } from './lua-script.ts';

/**
 * Caches loaded profiles, each only if its version is still the one read before loading it.
 * KEYS: cache key, version key for each profile. ARGV: ttl ms, then version and value for each.
 */
const FILL = new LuaScript(`
local ttl = ARGV[1]
for i = 1, #KEYS, 2 do
  local j = i + 1
  if (redis.call('GET', KEYS[i + 1]) or '0') == ARGV[j] then
    redis.call('SET', KEYS[i], ARGV[j + 1], 'PX', ttl)
  end
end
return #KEYS / 2
`);

/** What the cache holds for a user without a profile (the top list then shows the user id). */
const NONE = '-';

export interface RedisProfileCacheOptions {
  readonly keyPrefix: string;
  readonly ttlMs: number;
}

/**
 * The profiles of the players shown most (the top 10 on every read), cached in Redis in front of
 * the profile store, shared by every api process. A profile update invalidates it everywhere: the
 * entry is deleted and the user's version bumped, before and after the store is written, and a
 * read fills the cache only if the version is still the one it saw before loading — so a read that
 * raced an update (in any process) cannot put the old profile back. The TTL bounds what an entry
 * costs once its player leaves the top.
 */
export class RedisProfileCache implements ProfileStore {
  readonly #inner: ProfileStore;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number;
  #hits = 0;

  constructor(inner: ProfileStore, redis: Redis, options: RedisProfileCacheOptions) {
    this.#inner = inner;
    this.#redis = redis;
    this.#prefix = options.keyPrefix;
    this.#ttlMs = options.ttlMs;
  }

  /** Profile lookups answered from the cache by this process since it started. */
  get hits(): number {
    return this.#hits;
  }

  async get(userIds: readonly string[]): Promise<ReadonlyMap<string, Profile>> {
    const unique = [...new Set(userIds)];
    const found = new Map<string, Profile>();
    if (unique.length === 0) return found;
    const keys = unique.flatMap((userId) => [this.#entryKey(userId), this.#versionKey(userId)]);
    const cached = await this.#redis.mget(...keys);
    const missing: Array<{ userId: string; version: string }> = [];
    unique.forEach((userId, i) => {
      const value = cached[2 * i];
      if (value === null || value === undefined) {
        missing.push({ userId, version: cached[2 * i + 1] ?? '0' });
        return;
      }
      this.#hits++;
      if (value !== NONE) found.set(userId, JSON.parse(value) as Profile);
    });
    if (missing.length === 0) return found;
    const loaded = await this.#inner.get(missing.map((m) => m.userId));
    const fillKeys: string[] = [];
    const fillArgs: (string | number)[] = [this.#ttlMs];
    for (const { userId, version } of missing) {
      const profile = loaded.get(userId);
      if (profile !== undefined) found.set(userId, profile);
      fillKeys.push(this.#entryKey(userId), this.#versionKey(userId));
      fillArgs.push(version, profile === undefined ? NONE : JSON.stringify(profile));
    }
    await FILL.run(this.#redis, fillKeys, fillArgs);
    return found;
  }

  async put(userId: string, profile: Profile): Promise<void> {
    await this.#invalidate(userId);
    await this.#inner.put(userId, profile);
    await this.#invalidate(userId);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async #invalidate(userId: string): Promise<void> {
    // The version outlives any read in flight by far, and then goes: no key per player for ever.
    const version = this.#versionKey(userId);
    await this.#redis
      .multi()
      .incr(version)
      .pexpire(version, 2 * this.#ttlMs)
      .del(this.#entryKey(userId))
      .exec();
  }

  #entryKey(userId: string): string {
    return `${this.#prefix}profile:{${userId}}`;
  }

  #versionKey(userId: string): string {
    return `${this.#prefix}profile:{${userId}}:v`;
  }
}
