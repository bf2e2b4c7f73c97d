/**
 * Noticing a live ranking that was lost (Redis restarted empty, or flushed) and rebuilding it
 * before it is served again. The sign is the watermark (every win of the period up to it is
 * applied): it only moves forward, so one seen lower than before means the ranking lost wins.
 * The period's gate is closed until the rebuild from the win log is done (reads and applies are
 * a coded 503 meanwhile), and stays closed if the rebuild fails, for the next check to retry.
 */
import type { Logger } from '@tessera/kit';
import { catchUpPeriod, type CatchUpPorts } from './catch-up.ts';
import type { Period } from './core/period.ts';
import type { RankingGate } from './ranking-gate.ts';

export class RankingWatch {
  /** The highest watermark seen per live period. */
  readonly #seen = new Map<Period, number>();
  readonly #ports: CatchUpPorts;
  readonly #gate: RankingGate;
  readonly #logger: Logger;

  constructor(ports: CatchUpPorts, gate: RankingGate, logger: Logger) {
    this.#ports = ports;
    this.#gate = gate;
    this.#logger = logger;
  }

  /** One look at every live period (and every one seen before); rebuilds what went back. */
  async check(): Promise<void> {
    const { rankings, archive } = this.#ports;
    for (const period of await rankings.periods()) {
      if (!this.#seen.has(period)) this.#seen.set(period, 0);
    }
    for (const [period, seen] of this.#seen) {
      const watermark = await rankings.appliedSeq(period);
      if (watermark >= seen && !this.#gate.isClosed(period)) {
        this.#seen.set(period, watermark);
        continue;
      }
      // Dropped by the archiver once archived: not lost, just done.
      if (await archive.isArchived(period).catch(() => false)) {
        this.#seen.delete(period);
        this.#gate.open(period);
        continue;
      }
      this.#logger.warn(
        { period, watermark, seen },
        'ranking lost wins (its watermark went back): rebuilding it from the win log before serving it again',
      );
      this.#gate.close(period);
      const replayed = await catchUpPeriod(period, this.#ports, this.#logger);
      await rankings.repair?.(period);
      this.#seen.set(period, await rankings.appliedSeq(period));
      this.#gate.open(period);
      this.#logger.warn({ period, replayed }, 'ranking rebuilt: serving it again');
    }
  }
}
