import type { IdArena } from './id-arena.ts';

/**
 * The new ids kept as bytes that were let in (their wins are being logged) and not stored yet,
 * with the arena bytes reserved for them: stored, an id's room is given back as it is taken;
 * dropped (its win was never logged), one admission's room is given back.
 */
export class AdmittedIds {
  /** Id → bytes reserved for it (an id let in twice before it is stored holds two reservations). */
  readonly #reserved = new Map<string, number>();
  readonly #arena: IdArena;

  constructor(arena: IdArena) {
    this.#arena = arena;
  }

  /** Whether the new id can come in; if so, its bytes are reserved until it is stored or dropped. */
  admit(id: string): boolean {
    if (!this.#arena.admit(id.length)) return false;
    this.#reserved.set(id, (this.#reserved.get(id) ?? 0) + id.length);
    return true;
  }

  /** `id` is about to take its bytes: every reservation for it ends. */
  stored(id: string): void {
    if (this.#reserved.size === 0) return;
    const bytes = this.#reserved.get(id);
    if (bytes === undefined) return;
    this.#reserved.delete(id);
    this.#arena.release(bytes);
  }

  /** One admission of `id` will not be followed by its win (nothing when none is held). */
  dropped(id: string): void {
    const bytes = this.#reserved.get(id);
    if (bytes === undefined) return;
    if (bytes > id.length) this.#reserved.set(id, bytes - id.length);
    else this.#reserved.delete(id);
    this.#arena.release(id.length);
  }
}
