/**
 * Group commit for one SQLite file: the writes callers issue during one turn of the event loop
 * share one transaction, committed on the next turn (setImmediate), instead of one COMMIT each
 * (each COMMIT writes its pages to the WAL again, and FTS5 flushes a segment per transaction).
 *
 * Durability is unchanged: a write's promise resolves only after the COMMIT that holds it, so
 * whatever a caller was told is written (a 250 to an SMTP client, an ack) is on disk as it would
 * have been alone. A write that throws is undone alone (each runs in a savepoint of the group's
 * transaction). When SQLite rolls the whole transaction back (I/O error, full disk) or COMMIT
 * fails, every write of the group fails.
 */
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';

interface PendingWrite {
  readonly write: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: Error };

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export class GroupCommit {
  readonly #db: DatabaseSync;
  #pending: PendingWrite[] = [];
  #scheduled = false;
  /** Transactions committed and writes they held, since the start (tests, diagnostics). */
  readonly stats = { commits: 0, writes: 0 };

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Runs `write` (synchronous SQLite statements) in the next group; resolves once it is committed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const group = this.#pending;
    this.#pending = [];
    const outcomes: Outcome[] = [];
    try {
      transaction(this.#db, () => {
        for (const pending of group) {
          try {
            outcomes.push({ ok: true, value: transaction(this.#db, pending.write) });
          } catch (error) {
            // SQLite ended the whole transaction: nothing of the group is written.
            if (!this.#db.isTransaction) throw error;
            outcomes.push({ ok: false, error: asError(error) });
          }
        }
      });
    } catch (error) {
      for (const pending of group) pending.reject(asError(error));
      return;
    }
    this.stats.commits++;
    this.stats.writes += group.length;
    group.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) pending.reject(new Error('group commit lost a write'));
      else if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }
}
