import type { Service } from '@tessera/kit';
import { exchange } from '@tessera/exchange';
import { leaderboard } from '@tessera/leaderboard';

/** Every service of the platform: `tessera serve` runs them all, `tessera run` one role of one. */
export const SERVICES: readonly Service[] = [leaderboard, exchange];
