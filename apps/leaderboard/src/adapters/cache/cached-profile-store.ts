import type { Profile, ProfileStore } from '../../ports.ts';

/**
 * A small LRU in front of any profile store. The top list asks for the same few players' profiles
 * on every read, so those stay cached; a profile update evicts its entry at once. Misses are
 * cached too (as null): a player without a profile shows the user id, and asking again is waste.
 */
export class CachedProfileStore implements ProfileStore {
  readonly #inner: ProfileStore;
  readonly #capacity: number;
  readonly #entries = new Map<string, Profile | null>();
  /** Bumped by every put, so that a read that raced an update does not cache the old profile. */
  #generation = 0;
  #hits = 0;
  #misses = 0;

  constructor(inner: ProfileStore, capacity: number) {
    this.#inner = inner;
    this.#capacity = capacity;
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
      this.#touch(userId, cached);
      if (cached !== null) found.set(userId, cached);
    }
    if (missing.length > 0) {
      this.#misses += missing.length;
      const generation = this.#generation;
      const loaded = await this.#inner.get(missing);
      for (const userId of missing) {
        const profile = loaded.get(userId) ?? null;
        if (generation === this.#generation) this.#touch(userId, profile);
        if (profile !== null) found.set(userId, profile);
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

  #touch(userId: string, profile: Profile | null): void {
    this.#entries.delete(userId);
    this.#entries.set(userId, profile);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}
