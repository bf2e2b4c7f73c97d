// The leaderboard's public surface, listed name by name.
export { Ranking, type RankingEntry } from './core/ranking.ts';
export { OrderStatisticTree } from './core/order-statistic-tree.ts';
export { UserIdTable } from './core/user-id-table.ts';
export { periodClock, isPeriod, comparePeriods, type Period } from './core/period.ts';
export { TIE_BREAKS, type Standing, type TieBreak } from './core/standing.ts';
export { winRecordedEvent, type NewWin, type Win, type WinRecordedV1 } from './core/win.ts';
export type { AppendResult, ArchiveStore, Profile, ProfileStore, RankingStore, WinLog } from './ports.ts';
export { LeaderboardService, type Entry, type RecordedWin } from './service.ts';
export { archiveFinishedMonths } from './archiver.ts';
export { leaderboardErrors } from './errors.ts';
export { leaderboardSettings, readLeaderboardConfig, type LeaderboardConfig } from './config.ts';
export { openEmbeddedLeaderboard, type EmbeddedLeaderboard } from './adapters/embedded/open-embedded.ts';
export { mountLeaderboard, type MountedLeaderboard, type MountOptions } from './mount.ts';
export { leaderboardRoutes } from './http/routes.ts';
