import type { Service } from '@tessera/kit';
import { exchange } from '@tessera/exchange';
import { leaderboard } from '@tessera/leaderboard';
import { mail } from '@tessera/mail';

/** Every service of the platform: `tessera serve` runs them all, `tessera run` one role of one. */
export const SERVICES: readonly Service[] = [leaderboard, exchange, mail];
