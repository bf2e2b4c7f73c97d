// The leaderboard's public surface: what the platform's runners use, listed name by name.
export { leaderboard, leaderboardDescriptor } from './descriptor.ts';
export type { LeaderboardInstance } from './instance.ts';
export { rebuildPeriod, type RebuildProgress, type RebuildResult } from './rebuild.ts';
export { checkLeaderboardConfig, leaderboardSettings, type LeaderboardConfig } from './config.ts';
export { isPeriod } from './core/period.ts';
export { migrateAdapters } from './adapters/select.ts';
