// The leaderboard's public surface: what the platform's runners and CLI use, listed name by name.
export { leaderboard } from './descriptor.ts';
export { checkLeaderboardConfig, leaderboardSettings } from './config.ts';
export { isPeriod } from './core/period.ts';
export { migrateAdapters } from './adapters/select.ts';
export { rebuildPeriod } from './rebuild.ts';
export { archivePeriod } from './archive-period.ts';
// The operator's needs (the win log's stream on NATS) are in stores.ts: `@tessera/leaderboard/stores`.
