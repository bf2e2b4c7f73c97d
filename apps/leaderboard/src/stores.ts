/**
 * What the operator makes and removes on a board's servers: the win log's stream and match bucket
 * on NATS, and how a Cassandra URL is read. A subpath of its own (`@tessera/leaderboard/stores`):
 * the package's main entry is what every role process loads, and this one brings the JetStream
 * client with it.
 */
export {
  deleteWinLogStream,
  ensureWinLogStream,
  winLogStreamOptions,
  type WinLogStreamNames,
  type WinLogStreamOptions,
} from './adapters/nats/win-log-stream.ts';
export { parseCassandraUrl } from './adapters/cassandra/cassandra-url.ts';
