import type cassandra from 'cassandra-driver';
import type { Profile, ProfileStore } from '../../ports.ts';
import { checkKeyspace } from './schema.ts';

/** Player profiles in Cassandra, one row per user id. */
export class CassandraProfileStore implements ProfileStore {
  readonly #client: cassandra.Client;
  readonly #select: string;
  readonly #insert: string;

  constructor(client: cassandra.Client, keyspace: string) {
    const ks = checkKeyspace(keyspace);
    this.#client = client;
    this.#select = `SELECT user_name, display_name FROM ${ks}.profiles WHERE user_id = ?`;
    this.#insert = `INSERT INTO ${ks}.profiles (user_id, user_name, display_name) VALUES (?, ?, ?)`;
  }

  async get(userIds: readonly string[]): Promise<ReadonlyMap<string, Profile>> {
    // One read per id, in parallel: each goes straight to its partition's replicas (an IN over
    // partition keys would make one coordinator gather them all).
    const unique = [...new Set(userIds)];
    const rows = await Promise.all(
      unique.map((userId) =>
        this.#client.execute(this.#select, [userId], { prepare: true }).then((r) => r.first()),
      ),
    );
    const found = new Map<string, Profile>();
    unique.forEach((userId, i) => {
      const row = rows[i];
      if (row !== null && row !== undefined) {
        found.set(userId, {
          userName: String(row.get('user_name')),
          displayName: String(row.get('display_name')),
        });
      }
    });
    return found;
  }

  async put(userId: string, profile: Profile): Promise<void> {
    await this.#client.execute(this.#insert, [userId, profile.userName, profile.displayName], {
      prepare: true,
    });
  }

  /** The client belongs to whoever opened it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
