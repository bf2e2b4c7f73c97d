import t from 'tap';
import { MemoryRankingStore } from '../src/adapters/embedded/memory-ranking-store.ts';
import { Ranking } from '../src/core/ranking.ts';
import type { NewWin } from '../src/core/win.ts';
import type { AppendResult, ArchiveStore, ProfileStore, WinLog } from '../src/ports.ts';
import { RankingGate } from '../src/ranking-gate.ts';
import { LeaderboardService } from '../src/service.ts';
import { ListWinLog } from './helpers/list-win-log.ts';

const PERIOD = '2026-11';

/** An embedded store whose month has an id arena of 32 bytes (16 kept as headroom), not 4 GiB. */
class SmallArenaStore extends MemoryRankingStore {
  constructor() {
    super('shared');
    this.adopt(PERIOD, new Ranking('shared', { idArena: { bytes: 32, headroom: 16 } }));
  }
}

/** A service over `winLog` and a month whose arena lets 16 bytes of new ids in, each reserved. */
function smallArenaService(winLog: WinLog): LeaderboardService {
  return new LeaderboardService({
    ports: {
      winLog,
      // Through the gate, as the service is wired (descriptor.ts).
      rankings: new RankingGate().guard(new SmallArenaStore()),
      archive: { isArchived: () => Promise.resolve(false) } as unknown as ArchiveStore,
      profiles: {} as ProfileStore,
    },
    now: () => Date.UTC(2026, 10, 15),
    periodOf: () => PERIOD,
    cacheTopList: false,
  });
}

t.test('a new player past the id arena is refused with a code before the win is logged', async (t) => {
  const winLog = new ListWinLog(PERIOD);
  const service = smallArenaService(winLog);
  const code = (input: { userId: string; points: number }): Promise<string> =>
    service.recordWin(input).then(
      () => 'recorded',
      (error: unknown) => (error as { code: string }).code,
    );
  t.equal(await code({ userId: 'player_1', points: 1 }), 'recorded');
  t.equal(await code({ userId: 'player_2', points: 1 }), 'recorded', '16 bytes used: the limit');
  t.equal(await code({ userId: 'player_3', points: 1 }), 'LB_PLAYER_LIMIT');
  t.equal(winLog.wins.length, 2, 'the refused win is not logged');
  t.equal(await code({ userId: 'player_1', points: 2 }), 'recorded', 'a known player still scores');
  t.equal(
    await code({ userId: '0123456789abcdef01234567', points: 1 }),
    'recorded',
    'a hex id takes no bytes',
  );
  t.equal(winLog.wins.length, 4);
});

t.test('a period whose ranking is being rebuilt refuses the win before it is logged', async (t) => {
  const winLog = new ListWinLog(PERIOD);
  const gate = new RankingGate();
  const service = new LeaderboardService({
    // The refusal travels with the guarded store (descriptor.ts wires nothing else).
    ports: {
      winLog,
      rankings: gate.guard(new MemoryRankingStore('shared')),
      archive: { isArchived: () => Promise.resolve(false) } as unknown as ArchiveStore,
      profiles: {} as ProfileStore,
    },
    now: () => Date.UTC(2026, 10, 15),
    periodOf: () => PERIOD,
    cacheTopList: false,
  });
  gate.close(PERIOD);
  await t.rejects(service.recordWin({ userId: 'ada', points: 1 }), { code: 'LB_STORE_UNAVAILABLE' });
  await t.rejects(service.recordWin({ userId: 'ada', points: 1, matchId: 'm-1' }), {
    code: 'LB_STORE_UNAVAILABLE',
  });
  t.equal(winLog.wins.length, 0, 'nothing logged');
  gate.open(PERIOD);
  await service.recordWin({ userId: 'ada', points: 1, matchId: 'm-1' });
  t.equal(winLog.wins.length, 1);
});

/** A list win log that fails the appends of one player (as a log that cannot be reached would). */
class FailingFor extends ListWinLog {
  readonly #userId: string;
  constructor(period: string, userId: string) {
    super(period);
    this.#userId = userId;
  }
  override append(win: NewWin): Promise<AppendResult> {
    if (win.userId === this.#userId) return Promise.reject(new Error('the log is unreachable'));
    return super.append(win);
  }
}

t.test("a new player's reserved room goes back when their win fails", async (t) => {
  const service = smallArenaService(new FailingFor(PERIOD, 'player_1'));
  await t.rejects(service.recordWin({ userId: 'player_1', points: 1 }), /unreachable/);
  // Without the room of player_1's failed win given back, 8 reserved + 8 + 8 > 16.
  await service.recordWin({ userId: 'player_2', points: 1 });
  await service.recordWin({ userId: 'player_3', points: 1 });
  t.pass('both new players recorded in the 16 bytes');
});

t.test("a new player's reserved room goes back when their match id conflicts", async (t) => {
  const winLog = new ListWinLog(PERIOD);
  const service = smallArenaService(winLog);
  await service.recordWin({ userId: 'player_1', points: 1, matchId: 'm-1' });
  await t.rejects(service.recordWin({ userId: 'player_2', points: 1, matchId: 'm-1' }), {
    code: 'LB_MATCH_ID_CONFLICT',
  });
  await service.recordWin({ userId: 'player_3', points: 1 });
  t.equal(winLog.wins.length, 2, 'player_1 and player_3: 16 bytes, player_2 reserved nothing left');
});
