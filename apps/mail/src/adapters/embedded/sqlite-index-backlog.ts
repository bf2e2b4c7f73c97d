/**
 * index_backlog in metadata.db: the copies filed and not yet in search.db, the indexer's durable
 * to-do list (the one table not keyed by user_id). An entry is added in the same write as its
 * copy's filing, at every filing: a job filed again may be one whose copy an older version filed
 * without an entry (or whose index write never ran), and the indexer's `addNew` leaves a document
 * already indexed as it is, so an entry too many costs a lookup. Entries are taken off by their
 * keys, those the indexer read: no order of the keys is relied on.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { UnindexedCopy } from '../../ports.ts';

export class IndexBacklog {
  readonly #add: StatementSync;
  readonly #read: StatementSync;
  readonly #remove: StatementSync;

  constructor(db: DatabaseSync) {
    this.#add = db.prepare('INSERT INTO index_backlog (user_id, email_id) VALUES (?, ?)');
    // Whether the copy is still there, from the primary key's index alone (no row read).
    this.#read = db.prepare(
      `SELECT seq, user_id, email_id,
         EXISTS (SELECT 1 FROM messages m WHERE m.user_id = b.user_id AND m.email_id = b.email_id) AS present
       FROM index_backlog b ORDER BY seq LIMIT ?`,
    );
    // One statement for a batch's keys (a JSON array), not one a key.
    this.#remove = db.prepare('DELETE FROM index_backlog WHERE seq IN (SELECT value FROM json_each(?))');
  }

  /** Within the filing's write. */
  add(userId: string, emailId: string): void {
    this.#add.run(userId, emailId);
  }

  /** The oldest `limit` entries; an entry's key is its seq, as text. */
  read(limit: number): UnindexedCopy[] {
    const rows = this.#read.all(limit) as unknown as {
      seq: number;
      user_id: string;
      email_id: string;
      present: number;
    }[];
    return rows.map((row) => ({
      entry: String(row.seq),
      user_id: row.user_id,
      email_id: row.email_id,
      present: row.present === 1,
    }));
  }

  /** Within a write: the entries `read` gave (a key not there is no error). */
  remove(entries: readonly string[]): void {
    this.#remove.run(JSON.stringify(entries.map(Number)));
  }
}
