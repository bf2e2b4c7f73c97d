/**
 * Push, embedded: each event is appended to a backlog table (so a client that was offline,
 * or a restarted process, can poll what it missed) and emitted in process to live
 * subscribers (WebSocket) and waiting long polls, once committed. Appends go through a group
 * commit: the events published during one event-loop turn share a transaction.
 * Another connection of this process (the consumer thread's) announces its committed records
 * here, so that this connection's subscribers hear of them without waiting for a catch-up read.
 */
import { EventEmitter } from 'node:events';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { PushEvent } from '../../core/events.ts';
import type { Push, PushRecord, PushedEvent } from '../../ports.ts';
import { GroupWrites, type GroupWritesOptions } from './group-writes.ts';
import { settle } from './settle.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS push_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  event TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS push_events_user ON push_events (user_id, seq);
`;

export interface SqlitePushOptions {
  readonly now?: () => number;
  /** How long the backlog keeps an event (default 7 days). */
  readonly retentionMs?: number;
  readonly group?: GroupWritesOptions;
}

const PRUNE_EVERY = 1000;

export class SqlitePush implements Push {
  readonly #emitter = new EventEmitter();
  readonly #observers = new Set<(userId: string, record: PushRecord) => void>();
  readonly #group: GroupWrites;
  readonly #now: () => number;
  readonly #retentionMs: number;
  readonly #insert: StatementSync;
  readonly #since: StatementSync;
  readonly #prune: StatementSync;
  readonly #latest: StatementSync;
  #published = 0;

  constructor(db: DatabaseSync, options: SqlitePushOptions = {}) {
    db.exec(SCHEMA);
    this.#group = new GroupWrites(db, options.group);
    this.#emitter.setMaxListeners(0);
    this.#now = options.now ?? Date.now;
    this.#retentionMs = options.retentionMs ?? 7 * 24 * 3_600_000;
    this.#insert = db.prepare('INSERT INTO push_events (user_id, at, event) VALUES (?, ?, ?)');
    this.#since = db.prepare(
      'SELECT seq, at, event FROM push_events WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    this.#prune = db.prepare('DELETE FROM push_events WHERE at < ?');
    this.#latest = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM push_events WHERE user_id = ?');
  }

  /** Stops taking writes; resolves once those submitted are committed (before the connection closes). */
  closeWrites(): Promise<void> {
    return this.#group.close();
  }

  publish(userId: string, event: PushEvent): Promise<void> {
    return this.publishAll([{ userId, event }]);
  }

  /** One write of the group commit for them all (not a savepoint and a promise each). */
  publishAll(events: readonly PushedEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return this.#group
      .run(() => {
        const at = this.#now();
        return events.map(({ userId, event }) => {
          const seq = Number(this.#insert.run(userId, at, JSON.stringify(event)).lastInsertRowid);
          if (++this.#published % PRUNE_EVERY === 0) this.#prune.run(at - this.#retentionMs);
          const record: PushRecord = { seq, at, event };
          return { userId, record };
        });
      })
      .then((records) => {
        for (const { userId, record } of records) {
          this.#emitter.emit(userId, record);
          for (const observer of this.#observers) observer(userId, record);
        }
      });
  }

  /** A record another connection committed: told to this one's subscribers and long polls. */
  announce(userId: string, record: PushRecord): void {
    this.#emitter.emit(userId, record);
  }

  /** Every record this connection commits, whoever its user (the consumer thread forwards them). */
  observe(observer: (userId: string, record: PushRecord) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  subscribe(userId: string, listener: (record: PushRecord) => void): () => void {
    this.#emitter.on(userId, listener);
    return () => this.#emitter.off(userId, listener);
  }

  latest(userId: string): Promise<number> {
    return settle(() => (this.#latest.get(userId) as { seq: number }).seq);
  }

  async poll(
    userId: string,
    since: number,
    options: { waitMs: number; limit: number; signal?: AbortSignal },
  ): Promise<PushRecord[]> {
    const found = this.#read(userId, since, options.limit);
    if (found.length > 0 || options.waitMs <= 0 || options.signal?.aborted === true) return found;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#emitter.off(userId, done);
        options.signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, options.waitMs);
      this.#emitter.on(userId, done);
      options.signal?.addEventListener('abort', done);
    });
    // Read again rather than trust the emitted record: another process may have written too.
    return this.#read(userId, since, options.limit);
  }

  #read(userId: string, since: number, limit: number): PushRecord[] {
    const rows = this.#since.all(userId, since, limit) as unknown as {
      seq: number;
      at: number;
      event: string;
    }[];
    return rows.map((r) => ({ seq: r.seq, at: r.at, event: JSON.parse(r.event) as PushEvent }));
  }
}
