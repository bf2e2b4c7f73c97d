import t from 'tap';
import { MemoryRankingStore } from '../../src/adapters/embedded/memory-ranking-store.ts';
import { win } from '../ports/ranking-store.suite.ts';

t.test("a batch of several periods' wins applies each run to its own period's ranking", async (t) => {
  // The store hands each run of one period's wins to that ranking's applyBatch in one piece.
  const store = new MemoryRankingStore('shared');
  await store.applyBatch([
    win(1, 'a', 3, '2026-10'),
    win(2, 'b', 2, '2026-11'),
    win(3, 'a', 5, '2026-11'),
    win(4, 'c', 1, '2026-10'),
    win(5, 'a', 1, '2026-10'),
    win(3, 'a', 5, '2026-11'), // redelivered: counted once
  ]);
  t.same(await store.top('2026-10', 0, 10), [
    { userId: 'a', score: 4, rank: 1 },
    { userId: 'c', score: 1, rank: 2 },
  ]);
  t.same(await store.top('2026-11', 0, 10), [
    { userId: 'a', score: 5, rank: 1 },
    { userId: 'b', score: 2, rank: 2 },
  ]);
  t.equal(await store.appliedSeq('2026-10'), 5);
  t.equal(await store.appliedSeq('2026-11'), 3);
});
