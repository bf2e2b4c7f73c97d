/**
 * thread_ids in metadata.db: which thread each Message-ID a user has seen (a message's own or one
 * its headers name) belongs to, so that a reply joins its parent's thread.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export class ThreadIds {
  readonly #threadOf: StatementSync;
  readonly #link: StatementSync;

  constructor(db: DatabaseSync) {
    this.#threadOf = db.prepare('SELECT thread_id FROM thread_ids WHERE user_id = ? AND message_id = ?');
    this.#link = db.prepare(
      'INSERT OR IGNORE INTO thread_ids (user_id, message_id, thread_id) VALUES (?, ?, ?)',
    );
  }

  /** The thread of each id the user has one for. */
  of(userId: string, messageIds: readonly string[]): Map<string, string> {
    const found = new Map<string, string>();
    for (const id of messageIds) {
      const row = this.#threadOf.get(userId, id) as { thread_id: string } | undefined;
      if (row !== undefined) found.set(id, row.thread_id);
    }
    return found;
  }

  /** Within a write: the ids join `threadId`; one already linked keeps its thread. */
  link(userId: string, threadId: string, messageIds: readonly string[]): void {
    for (const id of messageIds) this.#link.run(userId, id, threadId);
  }
}
