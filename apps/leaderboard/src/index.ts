// The leaderboard's public surface: what the platform's runners and CLI use, listed name by name.
export { leaderboard } from './descriptor.ts';
export { checkLeaderboardConfig, leaderboardSettings } from './config.ts';
export { isPeriod } from './core/period.ts';
export { migrateAdapters } from './adapters/select.ts';
export { rebuildPeriod } from './rebuild.ts';
export { archivePeriod } from './archive-period.ts';
// The operator makes and deletes a board's win log stream with the api's own settings.
export {
  deleteWinLogStream,
  ensureWinLogStream,
  winLogStreamOptions,
  type WinLogStreamNames,
  type WinLogStreamOptions,
} from './adapters/nats/win-log-stream.ts';
export { parseCassandraUrl } from './adapters/cassandra/cassandra-url.ts';
