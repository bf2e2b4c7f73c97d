import cassandra from 'cassandra-driver';
import { comparePeriods, type Period } from '../../core/period.ts';
import type { Standing } from '../../core/standing.ts';
import type { ArchiveStore } from '../../ports.ts';
import { checkKeyspace } from './schema.ts';

/** Players per archive partition (see schema.ts). */
export const ARCHIVE_BUCKET = 100_000;
const WRITE_CONCURRENCY = 64;
/** Rows per unlogged batch of one partition, and such batches in flight. */
const PARTITION_BATCH = 100;
const BATCH_CONCURRENCY = 8;

export interface CassandraArchiveStoreOptions {
  readonly keyspace: string;
  /** Players per partition; tests use a small one to cross partitions. */
  readonly bucketSize?: number;
}

/** Finished months in Cassandra: fixed standings by position, and by player. */
export class CassandraArchiveStore implements ArchiveStore {
  readonly #client: cassandra.Client;
  readonly #bucket: number;
  readonly #cql: {
    readonly insertRow: string;
    readonly insertByUser: string;
    readonly insertPeriod: string;
    readonly selectPeriod: string;
    readonly selectByUser: string;
    readonly selectRange: string;
    readonly selectPeriods: string;
    readonly selectUsers: string;
    readonly deletePeriod: string;
    readonly deleteBucket: string;
    readonly deleteByUser: string;
  };

  constructor(client: cassandra.Client, options: CassandraArchiveStoreOptions) {
    const ks = checkKeyspace(options.keyspace);
    this.#client = client;
    this.#bucket = options.bucketSize ?? ARCHIVE_BUCKET;
    this.#cql = {
      insertRow: `INSERT INTO ${ks}.leaderboard_archive (period, bucket, position, user_id, score, rank) VALUES (?, ?, ?, ?, ?, ?)`,
      insertByUser: `INSERT INTO ${ks}.leaderboard_archive_by_user (period, user_id, position, score, rank) VALUES (?, ?, ?, ?, ?)`,
      insertPeriod: `INSERT INTO ${ks}.leaderboard_archive_periods (period, players, archived_at) VALUES (?, ?, ?)`,
      selectPeriod: `SELECT players FROM ${ks}.leaderboard_archive_periods WHERE period = ?`,
      selectByUser: `SELECT position, score, rank FROM ${ks}.leaderboard_archive_by_user WHERE period = ? AND user_id = ?`,
      selectRange: `SELECT position, user_id, score, rank FROM ${ks}.leaderboard_archive WHERE period = ? AND bucket = ? AND position >= ? AND position < ?`,
      selectPeriods: `SELECT period FROM ${ks}.leaderboard_archive_periods`,
      selectUsers: `SELECT user_id FROM ${ks}.leaderboard_archive WHERE period = ? AND bucket = ?`,
      deletePeriod: `DELETE FROM ${ks}.leaderboard_archive_periods WHERE period = ?`,
      deleteBucket: `DELETE FROM ${ks}.leaderboard_archive WHERE period = ? AND bucket = ?`,
      deleteByUser: `DELETE FROM ${ks}.leaderboard_archive_by_user WHERE period = ? AND user_id = ?`,
    };
  }

  async isArchived(period: Period): Promise<boolean> {
    const result = await this.#client.execute(this.#cql.selectPeriod, [period], { prepare: true });
    return result.rowLength > 0;
  }

  /**
   * Writes every standing by position (a rewrite after a crash puts the same rows in the same
   * places), then the period's row that makes it read as archived.
   */
  async write(period: Period, standings: AsyncIterable<readonly Standing[]>): Promise<number> {
    let position = 0;
    for await (const batch of standings) {
      // Rows of one partition go in unlogged batches (one write per partition replica); the rows
      // by player are each a partition of their own, so they go one by one, many at a time.
      const partitionBatches: Array<Array<{ query: string; params: unknown[] }>> = [];
      const byUser: unknown[][] = [];
      for (const standing of batch) {
        const bucket = Math.floor(position / this.#bucket);
        const score = cassandra.types.Long.fromNumber(standing.score);
        const last = partitionBatches.at(-1);
        const row = {
          query: this.#cql.insertRow,
          params: [period, bucket, position, standing.userId, score, standing.rank],
        };
        if (last !== undefined && last.length < PARTITION_BATCH && last[0]!.params[1] === bucket)
          last.push(row);
        else partitionBatches.push([row]);
        byUser.push([period, standing.userId, position, score, standing.rank]);
        position++;
      }
      await Promise.all([
        inParallel(partitionBatches, BATCH_CONCURRENCY, (queries) =>
          this.#client.batch(queries, { prepare: true, logged: false }),
        ),
        cassandra.concurrent.executeConcurrent(this.#client, this.#cql.insertByUser, byUser, {
          concurrencyLevel: WRITE_CONCURRENCY,
          raiseOnFirstError: true,
        }),
      ]);
    }
    await this.#client.execute(this.#cql.insertPeriod, [period, position, new Date()], { prepare: true });
    return position;
  }

  /** The periods' table is one row per archived period: a full read of it is small. */
  async periods(): Promise<Period[]> {
    const periods: Period[] = [];
    const result = await this.#client.execute(this.#cql.selectPeriods, [], {
      prepare: true,
      fetchSize: 1000,
    });
    for await (const row of result) periods.push(String(row.get('period')));
    return periods.sort(comparePeriods);
  }

  /**
   * The period's row first, so it reads as not archived at once; then the buckets from the last
   * one down, each with its rows by player (found through the bucket). A delete that stops
   * half-way leaves buckets 0…k that no read reaches (the period is no longer archived): deleting
   * again walks up from bucket 0 while buckets have rows, and removes them.
   */
  async delete(period: Period): Promise<void> {
    const counted = (await this.#client.execute(this.#cql.selectPeriod, [period], { prepare: true })).first();
    const players = counted === null ? 0 : Number(counted.get('players'));
    await this.#client.execute(this.#cql.deletePeriod, [period], { prepare: true });
    let last = Math.max(Math.ceil(players / this.#bucket) - 1, 0);
    while ((await this.#usersOf(period, last + 1)).length > 0) last++;
    for (let bucket = last; bucket >= 0; bucket--) {
      const users = await this.#usersOf(period, bucket);
      await cassandra.concurrent.executeConcurrent(
        this.#client,
        this.#cql.deleteByUser,
        users.map((user) => [period, user]),
        { concurrencyLevel: WRITE_CONCURRENCY, raiseOnFirstError: true },
      );
      await this.#client.execute(this.#cql.deleteBucket, [period, bucket], { prepare: true });
    }
  }

  async #usersOf(period: Period, bucket: number): Promise<string[]> {
    const rows = await this.#client.execute(this.#cql.selectUsers, [period, bucket], {
      prepare: true,
      fetchSize: 5000,
    });
    const users: string[] = [];
    for await (const row of rows) users.push(String(row.get('user_id')));
    return users;
  }

  async standing(period: Period, userId: string): Promise<Standing | undefined> {
    const row = (
      await this.#client.execute(this.#cql.selectByUser, [period, userId], { prepare: true })
    ).first();
    if (row === null) return undefined;
    return { userId, score: Number(row.get('score')), rank: Number(row.get('rank')) };
  }

  async top(period: Period, offset: number, limit: number): Promise<Standing[]> {
    if (limit <= 0) return [];
    const end = offset + limit;
    const reads: Promise<cassandra.types.ResultSet>[] = [];
    for (let bucket = Math.floor(offset / this.#bucket); bucket * this.#bucket < end; bucket++) {
      reads.push(
        this.#client.execute(this.#cql.selectRange, [period, bucket, offset, end], { prepare: true }),
      );
    }
    const standings: Standing[] = [];
    for (const result of await Promise.all(reads)) {
      for (const row of result.rows) {
        standings.push({
          userId: String(row.get('user_id')),
          score: Number(row.get('score')),
          rank: Number(row.get('rank')),
        });
      }
    }
    return standings;
  }

  async around(period: Period, userId: string, n: number): Promise<Standing[] | undefined> {
    const row = (
      await this.#client.execute(this.#cql.selectByUser, [period, userId], { prepare: true })
    ).first();
    if (row === null) return undefined;
    const position = Number(row.get('position'));
    const from = Math.max(0, position - n);
    return this.top(period, from, position + n + 1 - from);
  }

  /** The client belongs to whoever opened it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Runs `task` over `items`, at most `limit` at a time; fails with the first failure. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}
