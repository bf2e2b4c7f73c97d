import fc from 'fast-check';
import t from 'tap';
import { Ranking } from '../../src/core/ranking.ts';
import type { RankingEntry } from '../../src/core/ranking.ts';
import { agree, NaiveRanking, same, SHAPES } from './naive-ranking.ts';

/** The players a checkpoint would save now, by id (the set is then empty again). */
function changes(ranking: Ranking): RankingEntry[] {
  const taken = ranking.takeChanges();
  const entries = Array.from({ length: taken.length }, (_, i) => taken.entryAt(i));
  taken.end(true);
  return entries.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

for (const tieBreak of ['shared', 'earliest'] as const) {
  for (const shape of SHAPES) {
    t.test(
      `wins applied by applyBatch agree with the model and with apply one by one, applied seq and changed players too (${tieBreak}; ${shape.name})`,
      async (t) => {
        // A batch is parsed and looked up in chunks of 256 before its wins are applied: batches
        // longer than a chunk, ids met twice in one, redeliveries in one, the table growing (and,
        // in the renumbered shape, every player moving) while a chunk is applied.
        const seed = Number(process.env.PROPERTY_SEED ?? 20261129);
        t.comment(`seed ${seed} (set PROPERTY_SEED to replay)`);
        // Hex ids (the packed keys, the all-zero one kept as bytes) beside ids kept as bytes.
        const idOf = (user: number): string =>
          user % 3 === 0 ? `u${user}` : (user * 0x9e3779b1).toString(16).padStart(24, '0');
        const win = fc.tuple(
          fc.integer({ min: 0, max: 400 }),
          shape.points,
          fc.integer({ min: 0, max: 300 }),
        );
        fc.assert(
          fc.property(fc.array(win, { minLength: 300, maxLength: 700 }), fc.nat(), (wins, probe) => {
            const options = { ...shape.options, bulkPlacement: 3 };
            const batched = new Ranking(tieBreak, options);
            const single = new Ranking(tieBreak, options);
            const model = new NaiveRanking(tieBreak);
            let batch: Array<{ seq: number; userId: string; points: number }> = [];
            let expected = 0;
            const flush = (): void => {
              same(`wins counted in a batch of ${batch.length}`, batched.applyBatch(batch), expected);
              same('applied seq beside apply', batched.appliedSeq, single.appliedSeq);
              batch = [];
              expected = 0;
            };
            wins.forEach(([user, points, cut], i) => {
              const entry = { seq: i + 1, userId: idOf(user), points };
              batch.push(entry);
              if (single.apply(entry.seq, entry.userId, points)) expected++;
              model.apply(entry.seq, entry.userId, points);
              if (cut < 5) batch.push(entry); // a redelivery in the same batch
              if (cut === 5) flush(); // batches of some 150 wins on average, many past a chunk
              if (cut === 6) {
                flush();
                agree(batched, model, probe + i);
                same('players changed beside apply', changes(batched), changes(single));
              }
            });
            flush();
            agree(batched, model, probe);
            same('players changed beside apply', changes(batched), changes(single));
            same('full order beside apply', batched.top(0, batched.size), single.top(0, single.size));
          }),
          { numRuns: 6, seed },
        );
        t.pass('6 random batched win streams agree');
      },
    );
  }
}
