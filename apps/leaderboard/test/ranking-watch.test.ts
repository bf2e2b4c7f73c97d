import { createLogger } from '@tessera/kit';
import t from 'tap';
import { MemoryRankingStore } from '../src/adapters/embedded/memory-ranking-store.ts';
import type { Win } from '../src/core/win.ts';
import type { ArchiveStore, WinLog } from '../src/ports.ts';
import { RankingGate } from '../src/ranking-gate.ts';
import { RankingWatch } from '../src/ranking-watch.ts';

const PERIOD = '2026-11';
const wins: Win[] = [1, 2, 3].map((seq) => ({ seq, period: PERIOD, userId: `u${seq}`, points: seq, at: 0 }));
const winLog = {
  async *read(period: string, afterSeq: number) {
    await Promise.resolve();
    yield wins.filter((w) => w.period === period && w.seq > afterSeq);
  },
  periods: () => Promise.resolve([PERIOD]),
  lastSeq: () => Promise.resolve(wins.length),
} as unknown as WinLog;
let archived = false;
const archive = { isArchived: () => Promise.resolve(archived) } as unknown as ArchiveStore;
const logger = createLogger({ level: 'silent', name: 'test' });

t.test(
  'a ranking whose watermark went back is rebuilt from the log, the gate closed meanwhile',
  async (t) => {
    let rankings = new MemoryRankingStore('shared');
    const gate = new RankingGate();
    const ports = {
      winLog,
      archive,
      get rankings() {
        return rankings;
      },
    };
    const watch = new RankingWatch(ports, gate, logger);
    await rankings.applyBatch(wins);
    await watch.check();
    t.equal(await rankings.appliedSeq(PERIOD), 3);

    // Lost: an empty store (as Redis restarted empty).
    rankings = new MemoryRankingStore('shared');
    let closedDuringRebuild = false;
    const applyBatch = rankings.applyBatch.bind(rankings);
    rankings.applyBatch = (batch) => {
      closedDuringRebuild = gate.isClosed(PERIOD);
      return applyBatch(batch);
    };
    await watch.check();
    t.ok(closedDuringRebuild, 'the gate was closed while rebuilding');
    t.notOk(gate.isClosed(PERIOD), 'and open after');
    t.same(await rankings.top(PERIOD, 0, 10), [
      { userId: 'u3', score: 3, rank: 1 },
      { userId: 'u2', score: 2, rank: 2 },
      { userId: 'u1', score: 1, rank: 3 },
    ]);
  },
);

t.test('a period the archiver dropped is forgotten, not rebuilt', async (t) => {
  const rankings = new MemoryRankingStore('shared');
  const watch = new RankingWatch({ winLog, archive, rankings }, new RankingGate(), logger);
  await rankings.applyBatch(wins);
  await watch.check();
  archived = true;
  await rankings.drop(PERIOD);
  await watch.check();
  t.same(await rankings.periods(), [], 'still dropped');
});
