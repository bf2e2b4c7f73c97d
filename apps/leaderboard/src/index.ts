// The leaderboard's public surface: what the platform's runners use, listed name by name.
export { leaderboard, leaderboardDescriptor } from './descriptor.ts';
export type { LeaderboardInstance } from './instance.ts';
