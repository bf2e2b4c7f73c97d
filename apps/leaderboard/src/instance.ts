import type { Logger, OpenedService } from '@tessera/kit';
import type { LeaderboardConfig } from './config.ts';
import type { Period } from './core/period.ts';
import type { LeaderboardPorts } from './ports.ts';
import type { RankingGate } from './ranking-gate.ts';
import type { LeaderboardService } from './service.ts';

/** The leaderboard opened in a process: its ports, its use cases, and what the roles drive. */
export interface LeaderboardInstance extends OpenedService {
  readonly config: LeaderboardConfig;
  readonly service: LeaderboardService;
  /** The stores as opened; the service reads the rankings through `rankingGate`. */
  readonly ports: LeaderboardPorts;
  /** Closes a period's ranking to the use cases while it is rebuilt. */
  readonly rankingGate: RankingGate;
  readonly logger: Logger;
  /** Archives every finished period now (one run at a time). */
  archiveNow(): Promise<Period[]>;
  /** False once closing began. */
  isOpen(): boolean;
}
