import { LRUCache } from 'lru-cache';
import type { Profile, ProfileStore } from '../../ports.ts';

/** A player known to have no profile: cached too, since the top list asks for it on every read. */
const NO_PROFILE = Object.freeze({ none: true });
type Cached = Profile | typeof NO_PROFILE;

/**
 * A small LRU in front of any profile store. The top list asks for the same few players' profiles
 * on every read, so those stay cached; a profile update evicts its entry at once.
 */
export class CachedProfileStore implements ProfileStore {
  readonly #inner: ProfileStore;
  readonly #entries: LRUCache<string, Cached>;
  /** Bumped by every put, so that a read that raced an update does not cache the old profile. */
  #generation = 0;
  #hits = 0;
  #misses = 0;

  constructor(inner: ProfileStore, capacity: number) {
    this.#inner = inner;
    this.#entries = new LRUCache({ max: capacity });
  }

  get stats(): { hits: number; misses: number; size: number } {
    return { hits: this.#hits, misses: this.#misses, size: this.#entries.size };
  }

  async get(userIds: readonly string[]): Promise<ReadonlyMap<string, Profile>> {
    const found = new Map<string, Profile>();
    const missing: string[] = [];
    for (const userId of userIds) {
      const cached = this.#entries.get(userId);
      if (cached === undefined) {
        missing.push(userId);
        continue;
      }
      this.#hits++;
      if (cached !== NO_PROFILE) found.set(userId, cached as Profile);
    }
    if (missing.length > 0) {
      this.#misses += missing.length;
      const generation = this.#generation;
      const loaded = await this.#inner.get(missing);
      for (const userId of missing) {
        const profile = loaded.get(userId);
        if (generation === this.#generation) this.#entries.set(userId, profile ?? NO_PROFILE);
        if (profile !== undefined) found.set(userId, profile);
      }
    }
    return found;
  }

  async put(userId: string, profile: Profile): Promise<void> {
    this.#generation++;
    this.#entries.delete(userId);
    await this.#inner.put(userId, profile);
    this.#generation++;
    this.#entries.delete(userId);
  }

  close(): Promise<void> {
    this.#entries.clear();
    return this.#inner.close();
  }
}
