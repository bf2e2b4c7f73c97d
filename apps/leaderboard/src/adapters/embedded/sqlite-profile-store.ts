import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Profile, ProfileStore } from '../../ports.ts';

interface ProfileRow {
  user_id: string;
  user_name: string;
  display_name: string;
}

/** Player profiles in their own node:sqlite database (the spec keeps them in a separate store). */
export class SqliteProfileStore implements ProfileStore {
  readonly #byId: StatementSync;
  readonly #upsert: StatementSync;

  constructor(db: DatabaseSync) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS profiles (
        user_id TEXT PRIMARY KEY,
        user_name TEXT NOT NULL,
        display_name TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
    this.#byId = db.prepare('SELECT user_id, user_name, display_name FROM profiles WHERE user_id = ?');
    this.#upsert = db.prepare(
      'INSERT INTO profiles (user_id, user_name, display_name, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name, display_name = excluded.display_name, updated_at = excluded.updated_at',
    );
  }

  /** The database belongs to the caller that opened it. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  get(userIds: readonly string[]): Promise<ReadonlyMap<string, Profile>> {
    const found = new Map<string, Profile>();
    for (const userId of userIds) {
      const row = this.#byId.get(userId) as ProfileRow | undefined;
      if (row) found.set(userId, { userName: row.user_name, displayName: row.display_name });
    }
    return Promise.resolve(found);
  }

  put(userId: string, profile: Profile): Promise<void> {
    this.#upsert.run(userId, profile.userName, profile.displayName, Date.now());
    return Promise.resolve();
  }
}
