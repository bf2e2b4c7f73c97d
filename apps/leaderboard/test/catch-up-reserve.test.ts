import { createLogger } from '@tessera/kit';
import t from 'tap';
import { MemoryRankingStore } from '../src/adapters/embedded/memory-ranking-store.ts';
import { catchUpPeriod, type CatchUpPorts } from '../src/catch-up.ts';
import type { Period } from '../src/core/period.ts';
import type { Win } from '../src/core/win.ts';
import type { ArchiveStore, WinLog } from '../src/ports.ts';

const logger = createLogger({ level: 'silent', name: 'test' });
const PERIOD = '2026-11';
const PLAYERS = 50_000;
/** Every player once, then 30,000 of them again: 80,000 wins, past the size from which a replay reserves. */
const WINS: Win[] = Array.from({ length: PLAYERS + 30_000 }, (_, i) => ({
  seq: i + 1,
  period: PERIOD,
  userId: `p${(i * 7) % PLAYERS}`,
  points: 1 + (i % 4),
  at: i,
}));

/** A log of WINS that estimates its players as `players` says (undefined: no estimate at all). */
function winLog(players: number | undefined, wins: readonly Win[] = WINS): WinLog {
  return {
    append: () => Promise.reject(new Error('read only')),
    async *read(_period: Period, afterSeq: number) {
      const rest = wins.filter((win) => win.seq > afterSeq);
      for (let i = 0; i < rest.length; i += 10_000) yield rest.slice(i, i + 10_000);
    },
    periods: () => Promise.resolve([PERIOD]),
    lastSeq: () => Promise.resolve(wins.at(-1)?.seq ?? 0),
    ...(players === undefined ? {} : { players: () => Promise.resolve(players) }),
    close: () => Promise.resolve(),
  };
}

const archive = {} as ArchiveStore;

/** Replays with the given estimate; what reserve was asked for and the standings it ended with. */
async function replay(
  tieBreak: 'shared' | 'earliest',
  players: number | undefined,
  wins: readonly Win[] = WINS,
): Promise<{ reserved: number[]; standings: unknown[] }> {
  const rankings = new MemoryRankingStore(tieBreak);
  const reserved: number[] = [];
  const reserve = rankings.reserve.bind(rankings);
  rankings.reserve = (period, count) => {
    reserved.push(count);
    return reserve(period, count);
  };
  const ports: CatchUpPorts = { winLog: winLog(players, wins), rankings, archive };
  await catchUpPeriod(PERIOD, ports, logger);
  const standings = [
    await rankings.top(PERIOD, 0, 20),
    await rankings.top(PERIOD, 25_000, 20),
    await rankings.standing(PERIOD, 'p123'),
    await rankings.players(PERIOD),
  ];
  return { reserved, standings };
}

for (const tieBreak of ['shared', 'earliest'] as const) {
  t.test(`a replay reserves the log's estimate; a wrong one changes no result (${tieBreak})`, async (t) => {
    const { standings: expected } = await replay(tieBreak, undefined);
    t.equal(expected[3], PLAYERS);
    for (const [name, players, asked] of [
      ['exact', PLAYERS, PLAYERS],
      ['zero', 0, 0],
      ['too small', 16_000, 16_000],
      ['too large, capped at the wins to replay', 1e9, WINS.length],
      ['not a number', Number.NaN, Number.NaN],
    ] as const) {
      const { reserved, standings } = await replay(tieBreak, players);
      t.same(reserved, [asked], `${name}: reserve asked for ${asked}`);
      t.same(standings, expected, `${name}: the same ranking`);
    }
  });
}

t.test('a short replay grows as it goes: nothing is reserved', async (t) => {
  const { reserved, standings } = await replay('shared', PLAYERS, WINS.slice(0, 1_000));
  t.same(reserved, []);
  t.equal(standings[3], 1_000);
});
