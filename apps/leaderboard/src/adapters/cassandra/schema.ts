import type cassandra from 'cassandra-driver';

export interface LeaderboardSchemaOptions {
  readonly keyspace: string;
  /** The data center the replicas live in (the one in CASSANDRA_URL). */
  readonly dataCenter: string;
  readonly replicationFactor: number;
}

const IDENTIFIER = /^[a-z][a-z0-9_]{0,47}$/;

/** A keyspace name is spliced into CQL: only a plain identifier is accepted. */
export function checkKeyspace(keyspace: string): string {
  if (!IDENTIFIER.test(keyspace))
    throw new Error(`keyspace ${JSON.stringify(keyspace)} must match ${String(IDENTIFIER)}`);
  return keyspace;
}

/**
 * The leaderboard's schema, each statement idempotent (IF NOT EXISTS), so migrating again — at
 * every role start, or from two processes at once — changes nothing.
 *
 * `leaderboard_archive` is partitioned by period and by a bucket of positions (ARCHIVE_BUCKET
 * players per partition): a month of 25 million players in one partition would be over a gigabyte,
 * far past what a Cassandra partition should hold. `leaderboard_archive_by_user` answers one
 * player's standing in one read; `leaderboard_archive_periods` is written last, so a period reads
 * as archived only once every row is in.
 */
export function leaderboardSchema(options: LeaderboardSchemaOptions): string[] {
  const ks = checkKeyspace(options.keyspace);
  const dataCenter = options.dataCenter.replaceAll("'", "''");
  return [
    `CREATE KEYSPACE IF NOT EXISTS ${ks} WITH replication = {'class': 'NetworkTopologyStrategy', '${dataCenter}': ${options.replicationFactor}}`,
    `CREATE TABLE IF NOT EXISTS ${ks}.profiles (user_id text PRIMARY KEY, user_name text, display_name text)`,
    `CREATE TABLE IF NOT EXISTS ${ks}.leaderboard_archive (
      period text, bucket int, position int, user_id text, score bigint, rank int,
      PRIMARY KEY ((period, bucket), position)
    ) WITH CLUSTERING ORDER BY (position ASC)`,
    `CREATE TABLE IF NOT EXISTS ${ks}.leaderboard_archive_by_user (
      period text, user_id text, position int, score bigint, rank int,
      PRIMARY KEY ((period, user_id))
    )`,
    `CREATE TABLE IF NOT EXISTS ${ks}.leaderboard_archive_periods (period text PRIMARY KEY, players int, archived_at timestamp)`,
  ];
}

/** Applies the schema; safe to run again (the `tessera leaderboard migrate` command calls it). */
export async function migrateLeaderboard(
  client: cassandra.Client,
  options: LeaderboardSchemaOptions,
): Promise<void> {
  // One at a time: each DDL waits for schema agreement before the next builds on it.
  for (const statement of leaderboardSchema(options)) await client.execute(statement);
}
