/**
 * The embedded durable queue: one table, one row per job, shared by every role that opens the
 * same file (so roles in separate processes work too). A claim leases a job by pushing its
 * ready_at past the lease; a consumer that dies leaves the job to come back when it runs out.
 * Writes (enqueue, claim, ack, retry) go through a group commit: those of one event-loop turn
 * share a transaction, and each resolves once that transaction is committed. A claim leases its
 * jobs in one statement, and the acks of a topic made before a commit are one DELETE.
 */
import { EventEmitter } from 'node:events';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Topic } from '../../core/events.ts';
import type { Job, Queue, QueueStats } from '../../ports.ts';
import { GroupWrites, type GroupWritesOptions } from './group-writes.ts';
import { settle } from './settle.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  topic TEXT NOT NULL,
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  enqueued_at INTEGER NOT NULL,
  ready_at INTEGER NOT NULL,
  PRIMARY KEY (topic, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS jobs_ready ON jobs (topic, ready_at, enqueued_at);
`;

interface JobRow {
  id: string;
  payload: string;
  attempts: number;
  enqueued_at: number;
}

export class SqliteQueue implements Queue {
  readonly #group: GroupWrites;
  readonly #now: () => number;
  readonly #ready = new EventEmitter();
  readonly #insert: StatementSync;
  readonly #select: StatementSync;
  readonly #anyReady: StatementSync;
  readonly #lease: StatementSync;
  readonly #delete: StatementSync;
  readonly #retry: StatementSync;
  readonly #stats: StatementSync;
  /** The acks of a topic waiting for the next group commit: deleted by one statement. */
  readonly #acks = new Map<Topic, { ids: string[]; done: Promise<void> }>();

  /**
   * `yieldWhileBusyMs`: the group commit waits for another connection's write lock on the event
   * loop for that long first (see GroupWrites): smtp-in's enqueues and the consumer thread's
   * claims and acks share queue.db's lock.
   */
  constructor(db: DatabaseSync, now: () => number = Date.now, options: GroupWritesOptions = {}) {
    this.#group = new GroupWrites(db, options);
    this.#now = now;
    db.exec(SCHEMA);
    this.#ready.setMaxListeners(0);
    this.#insert = db.prepare(
      'INSERT OR IGNORE INTO jobs (topic, id, payload, enqueued_at, ready_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.#select = db.prepare(
      'SELECT id, payload, attempts, enqueued_at FROM jobs WHERE topic = ? AND ready_at <= ? ORDER BY ready_at, enqueued_at LIMIT ?',
    );
    this.#anyReady = db.prepare('SELECT 1 AS x FROM jobs WHERE topic = ? AND ready_at <= ? LIMIT 1');
    // Many ids in one statement: a JSON array of them.
    this.#lease = db.prepare(
      'UPDATE jobs SET ready_at = ? WHERE topic = ? AND id IN (SELECT value FROM json_each(?))',
    );
    this.#delete = db.prepare('DELETE FROM jobs WHERE topic = ? AND id IN (SELECT value FROM json_each(?))');
    this.#retry = db.prepare(
      'UPDATE jobs SET ready_at = ?, attempts = attempts + 1 WHERE topic = ? AND id = ?',
    );
    this.#stats = db.prepare('SELECT count(*) AS size, min(enqueued_at) AS oldest FROM jobs WHERE topic = ?');
  }

  enqueue(topic: Topic, id: string, payload: unknown, options: { notBefore?: number } = {}): Promise<void> {
    return this.#group
      .run(() => {
        const now = this.#now();
        this.#insert.run(topic, id, JSON.stringify(payload), now, options.notBefore ?? now);
      })
      .then(() => {
        this.#ready.emit(topic);
      });
  }

  claim<T>(topic: Topic, options: { limit: number; leaseMs: number }): Promise<Job<T>[]> {
    // An idle consumer polls often: a read first spares it the write lock of an empty claim.
    const idle = settle(() => this.#anyReady.get(topic, this.#now()) === undefined);
    return idle.then((empty) => (empty ? [] : this.#claimReady<T>(topic, options)));
  }

  #claimReady<T>(topic: Topic, options: { limit: number; leaseMs: number }): Promise<Job<T>[]> {
    // One write of the group commit: atomic without a transaction of its own.
    return this.#group.run(() => {
      const now = this.#now();
      const rows = this.#select.all(topic, now, options.limit) as unknown as JobRow[];
      if (rows.length > 0)
        this.#lease.run(now + options.leaseMs, topic, JSON.stringify(rows.map((r) => r.id)));
      return rows.map((row) => ({
        id: row.id,
        payload: JSON.parse(row.payload) as T,
        attempts: row.attempts,
        enqueuedAt: row.enqueued_at,
      }));
    });
  }

  /**
   * The acks of a topic made before the group commit runs are one DELETE of their ids: they
   * succeed or fail together (for a delete of leased rows, a failure any retry would redo).
   */
  ack(topic: Topic, id: string): Promise<void> {
    const pending = this.#acks.get(topic);
    if (pending !== undefined) {
      pending.ids.push(id);
      return pending.done;
    }
    const ids = [id];
    const done = this.#group.run(() => {
      // From here on, an ack of this topic starts the next statement.
      this.#acks.delete(topic);
      this.#delete.run(topic, JSON.stringify(ids));
    });
    this.#acks.set(topic, { ids, done });
    // A group that failed before this write ran must not keep taking acks.
    const clear = (): void => {
      if (this.#acks.get(topic)?.ids === ids) this.#acks.delete(topic);
    };
    done.then(clear, clear);
    return done;
  }

  retry(topic: Topic, id: string, notBefore: number): Promise<void> {
    return this.#group
      .run(() => {
        this.#retry.run(notBefore, topic, id);
      })
      .then(() => {
        this.#ready.emit(topic);
      });
  }

  /** Stops taking writes; resolves once those submitted are committed (before the connection closes). */
  closeWrites(): Promise<void> {
    return this.#group.close();
  }

  stats(topic: Topic): Promise<QueueStats> {
    return settle(() => {
      const row = this.#stats.get(topic) as { size: number; oldest: number | null };
      return { size: row.size, oldestAgeMs: row.oldest === null ? 0 : Math.max(0, this.#now() - row.oldest) };
    });
  }

  onReady(topic: Topic, listener: () => void): () => void {
    this.#ready.on(topic, listener);
    return () => this.#ready.off(topic, listener);
  }
}
