/**
 * The ranking is a projection of the win log, so it can always be brought up to date from it:
 * at start (a restart after a crash, a Redis that came back empty, a stale checkpoint) and on
 * demand (`tessera leaderboard rebuild`). A service reports ready only after this ran.
 */
import type { Logger } from '@tessera/kit';
import type { Period } from './core/period.ts';
import type { ArchiveStore, RankingStore, WinLog } from './ports.ts';

const PROGRESS_EVERY = 1_000_000;
/** From this many wins to replay the ranking is sized first (see reserveFor); fewer grow it cheaply. */
const RESERVE_FROM = 1 << 16;

export interface CatchUpPorts {
  readonly winLog: WinLog;
  readonly rankings: RankingStore;
  readonly archive: ArchiveStore;
}

/**
 * Replays, for every period of the log not yet archived, the wins its ranking has not applied.
 *
 * With the archive down (Cassandra), which periods are archived cannot be told: then a period is
 * caught up when it still has a live ranking (archiving drops it only once archived) or is the
 * log's newest, and the rest wait for the next catch-up. So an api starts while Cassandra is down.
 */
export async function catchUp(ports: CatchUpPorts, logger: Logger): Promise<void> {
  const periods = await ports.winLog.periods();
  let live: readonly Period[] | undefined;
  for (const period of periods) {
    const archived = await ports.archive.isArchived(period).catch(async (error: unknown) => {
      live ??= await ports.rankings.periods();
      const keep = live.includes(period) || period === periods.at(-1);
      logger.warn(
        { err: error, period },
        keep
          ? 'archive unavailable: catching up the live period anyway'
          : 'archive unavailable: this period waits for the next catch-up',
      );
      return !keep;
    });
    if (archived) continue;
    await catchUpPeriod(period, ports, logger);
  }
}

/** Brings one period's ranking up to the log; a ranking ahead of the log is rebuilt from scratch. */
export async function catchUpPeriod(
  period: Period,
  ports: CatchUpPorts,
  logger: Logger,
  onBatch?: (progress: { replayed: number; seq: number; fromSeq: number; lastSeq: number }) => void,
): Promise<number> {
  const started = Date.now();
  // The watermark first: it only ever covers wins already in the log, so read before the log's
  // end it can be ahead of that end only when the ranking holds what the log never had.
  let from = await ports.rankings.appliedSeq(period);
  const lastSeq = await ports.winLog.lastSeq(period);
  if (from > lastSeq) {
    // Saved state that claims wins the log does not have cannot be trusted.
    logger.warn(
      { period, appliedSeq: from, lastSeq },
      'ranking is ahead of the win log: rebuilding the period',
    );
    await ports.rankings.drop(period);
    from = 0;
  }
  if (lastSeq - from >= RESERVE_FROM) await reserveFor(period, ports, lastSeq - from);
  let replayed = 0;
  let nextProgress = PROGRESS_EVERY;
  for await (const batch of ports.winLog.read(period, from)) {
    await ports.rankings.applyBatch(batch);
    replayed += batch.length;
    onBatch?.({ replayed, seq: batch.at(-1)?.seq ?? from, fromSeq: from, lastSeq });
    if (replayed >= nextProgress) {
      logger.info({ period, replayed, lastSeq }, 'replaying the win log');
      nextProgress += PROGRESS_EVERY;
    }
  }
  logger.info(
    {
      period,
      replayed,
      fromSeq: from,
      players: await ports.rankings.players(period),
      ms: Date.now() - started,
    },
    from === 0 && replayed > 0 ? 'ranking rebuilt from the win log' : 'ranking recovered',
  );
  return replayed;
}

/**
 * Sizes the period's ranking for the players the log says it has, before the replay applies a
 * win: a table that grew as it went rewrote every player at random at each growth, and then once
 * more to trim (61 s against 32 s at 25 M players). The count is an estimate, capped by the wins
 * to replay (`wins`, a bound: seqs are shared by the periods) plus the players already ranked.
 */
async function reserveFor(period: Period, ports: CatchUpPorts, wins: number): Promise<void> {
  if (ports.winLog.players === undefined || ports.rankings.reserve === undefined) return;
  const estimate = await ports.winLog.players(period);
  const ranked = await ports.rankings.players(period);
  await ports.rankings.reserve(period, Math.min(estimate, ranked + wins));
}
