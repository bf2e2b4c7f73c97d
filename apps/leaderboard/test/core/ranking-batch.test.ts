import t from 'tap';
import { Ranking } from '../../src/core/ranking.ts';
import type { RankingEntry } from '../../src/core/ranking.ts';

type BatchWin = { seq: number; userId: string; points: number };

/** Everything a reader or a checkpoint sees of a ranking (the changed set is taken). */
function seen(ranking: Ranking): unknown {
  const taken = ranking.takeChanges();
  const changed: RankingEntry[] = Array.from({ length: taken.length }, (_, i) => taken.entryAt(i));
  taken.end(true);
  changed.sort((a, b) => (a.userId < b.userId ? -1 : 1));
  return { size: ranking.size, appliedSeq: ranking.appliedSeq, top: ranking.top(0, ranking.size), changed };
}

/** Applies `wins` one by one as applyBatch promises to, stopping at the first throw as it does. */
function oneByOne(ranking: Ranking, wins: readonly BatchWin[]): string {
  try {
    for (const win of wins) ranking.apply(win.seq, win.userId, win.points);
  } catch (error) {
    return String(error);
  }
  return '';
}

t.test('a win that throws in the middle of a chunk leaves what apply one by one leaves', async (t) => {
  // The arena (non-hex ids' bytes) holds 64 bytes: the 11th new 6-character id (seq 281) does not fit, in
  // the middle of the second chunk; the wins before it, in both chunks, stay applied.
  const options = { idArena: { bytes: 64, headroom: 0, reserveWithin: 0 } };
  const wins: BatchWin[] = [];
  for (let i = 0; i < 300; i++) {
    const user = i < 280 ? i % 10 : 10 + (i - 280);
    wins.push({ seq: i + 1, userId: `user${String(user).padStart(2, '0')}`, points: 1 + (i % 3) });
  }
  const batched = new Ranking('earliest', options);
  const single = new Ranking('earliest', options);
  let thrown = '';
  try {
    batched.applyBatch(wins);
  } catch (error) {
    thrown = String(error);
  }
  t.match(thrown, /arena is full/, 'the batch throws the win that did not fit');
  t.equal(oneByOne(single, wins), thrown, 'one by one throws the same');
  t.same(seen(batched), seen(single), 'the same players, scores, applied seq and changed set');
  t.equal(batched.appliedSeq, 280, 'applied up to the win before the one that threw');
});

t.test('a batch of one id many times, past a chunk, counts it once a seq', async (t) => {
  // 600 wins of one player (hex, then bytes), every third one redelivered in the same batch.
  for (const userId of ['5f2b9c1e8d3a4b6c7e9f0a1b', 'player-1']) {
    const wins: BatchWin[] = [];
    for (let seq = 1; wins.length < 600; seq++) {
      wins.push({ seq, userId, points: 2 });
      if (seq % 3 === 0) wins.push({ seq, userId, points: 2 });
    }
    const batched = new Ranking('shared');
    const single = new Ranking('shared');
    const counted = batched.applyBatch(wins);
    oneByOne(single, wins);
    t.equal(counted, 450, `${userId}: the redeliveries are not counted`);
    t.same(seen(batched), seen(single), `${userId}: as one by one`);
  }
});
