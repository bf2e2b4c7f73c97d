/**
 * FIX sequence numbers per SenderCompID in node:sqlite (DATA_DIR/exchange/fix.db), so that a
 * restarted acceptor goes on where it stopped. The acceptor saves a session's numbers before it
 * writes the frames that used them: a number once sent is never sent again for another message.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Sequences } from './session.ts';

export interface SequenceStore {
  load(senderCompId: string): Sequences;
  save(senderCompId: string, sequences: Sequences): void;
}

export class SqliteSequenceStore implements SequenceStore {
  readonly #select: StatementSync;
  readonly #upsert: StatementSync;

  constructor(db: DatabaseSync) {
    db.exec(`CREATE TABLE IF NOT EXISTS fix_sequences (
      sender_comp_id TEXT PRIMARY KEY,
      next_in INTEGER NOT NULL,
      next_out INTEGER NOT NULL
    ) STRICT`);
    this.#select = db.prepare('SELECT next_in, next_out FROM fix_sequences WHERE sender_comp_id = ?');
    this.#upsert = db.prepare(
      `INSERT INTO fix_sequences (sender_comp_id, next_in, next_out) VALUES (?, ?, ?)
       ON CONFLICT (sender_comp_id) DO UPDATE SET next_in = excluded.next_in, next_out = excluded.next_out`,
    );
  }

  load(senderCompId: string): Sequences {
    const row = this.#select.get(senderCompId) as { next_in: number; next_out: number } | undefined;
    return row === undefined ? { nextIn: 1, nextOut: 1 } : { nextIn: row.next_in, nextOut: row.next_out };
  }

  save(senderCompId: string, { nextIn, nextOut }: Sequences): void {
    this.#upsert.run(senderCompId, nextIn, nextOut);
  }
}
