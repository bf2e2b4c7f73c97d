import fc from 'fast-check';
import t from 'tap';
import { takenEntries } from '../helpers/taken-entries.ts';
import { Ranking } from '../../src/core/ranking.ts';
import { agree, NaiveRanking, same, SHAPES } from './naive-ranking.ts';

for (const tieBreak of ['shared', 'earliest'] as const) {
  for (const shape of SHAPES) {
    t.test(`ranking agrees with the naive model after every win (${tieBreak}; ${shape.name})`, async (t) => {
      const seed = Number(process.env.PROPERTY_SEED ?? 20261122);
      t.comment(`seed ${seed} (set PROPERTY_SEED to replay)`);
      const win = fc.tuple(fc.integer({ min: 0, max: 40 }), shape.points);
      fc.assert(
        fc.property(fc.array(win, { minLength: 1, maxLength: 120 }), fc.nat(), (wins, probe) => {
          const ranking = new Ranking(tieBreak, shape.options);
          const model = new NaiveRanking(tieBreak);
          wins.forEach(([user, points], i) => {
            const touched = `u${user}`;
            ranking.apply(i + 1, touched, points);
            model.apply(i + 1, touched, points);
            const expected = model.all();
            same(
              `standing of ${touched} after win ${i + 1}`,
              ranking.standing(touched),
              expected.find((s) => s.userId === touched),
            );
            same(`top 10 after win ${i + 1}`, ranking.top(0, 10), expected.slice(0, 10));
          });
          agree(ranking, model, probe);
        }),
        { numRuns: 300, seed },
      );
      t.pass('300 random win streams agree');
    });
  }

  for (const shape of SHAPES) {
    t.test(
      `wins applied in batches, read only between them, agree with the model (${tieBreak}; ${shape.name})`,
      async (t) => {
        // A replay applies many wins before the next read: players met in between are placed at
        // once, merged with the placed ones (many) or one by one (a few), redeliveries included.
        const seed = Number(process.env.PROPERTY_SEED ?? 20261127);
        t.comment(`seed ${seed} (set PROPERTY_SEED to replay)`);
        const win = fc.tuple(fc.integer({ min: 0, max: 60 }), shape.points, fc.integer({ min: 0, max: 12 }));
        fc.assert(
          fc.property(fc.array(win, { minLength: 1, maxLength: 150 }), fc.nat(), (wins, probe) => {
            // Bulk placement from 3 players on, so that both ways of placing happen here.
            const ranking = new Ranking(tieBreak, { ...shape.options, bulkPlacement: 3 });
            const model = new NaiveRanking(tieBreak);
            wins.forEach(([user, points, cut], i) => {
              ranking.apply(i + 1, `u${user}`, points);
              model.apply(i + 1, `u${user}`, points);
              if (cut === 0 && ranking.apply(i + 1, `u${user}`, points))
                throw new Error(`win ${i + 1}, redelivered, was counted again`);
              if (cut === 1) agree(ranking, model, probe + i);
            });
            agree(ranking, model, probe);
          }),
          { numRuns: 200, seed },
        );
        t.pass('200 random batched win streams agree');
      },
    );
  }

  t.test(`players' wins interleaved in another order give the same ranking (${tieBreak})`, async (t) => {
    // Several api processes apply a period's wins in any order, each player's in seq order.
    const seed = Number(process.env.PROPERTY_SEED ?? 20261127);
    t.comment(`seed ${seed} (set PROPERTY_SEED to replay)`);
    const win = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 4 }), fc.nat());
    fc.assert(
      fc.property(fc.array(win, { minLength: 1, maxLength: 150 }), (wins) => {
        const inLog = new Ranking(tieBreak, { blockSize: 4 });
        wins.forEach(([user, points], i) => inLog.apply(i + 1, `u${user}`, points));
        // Another interleaving: wins sorted by a random key, then each player's put back in seq order.
        const seqsOf = new Map<number, number[]>();
        wins.forEach(([user], i) => seqsOf.set(user, [...(seqsOf.get(user) ?? []), i + 1]));
        const shuffled = wins.map(([user, points, key], i) => ({ user, points, key, seq: i + 1 }));
        shuffled.sort((a, b) => a.key - b.key);
        const next = new Map<number, number>();
        const interleaved = new Ranking(tieBreak, { blockSize: 4 });
        for (const { user } of shuffled) {
          const k = next.get(user) ?? 0;
          next.set(user, k + 1);
          const seq = seqsOf.get(user)![k]!;
          interleaved.apply(seq, `u${user}`, wins[seq - 1]![1]);
          interleaved.standing(`u${user}`); // a read between wins: placed one by one
        }
        same('full order', interleaved.top(0, 1000), inLog.top(0, 1000));
      }),
      { numRuns: 300, seed },
    );
    t.pass('300 interleavings agree');
  });

  t.test(`a restored ranking plus the replay agrees with the model (${tieBreak})`, async (t) => {
    const seed = Number(process.env.PROPERTY_SEED ?? 20261122);
    const win = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 30 }));
    fc.assert(
      fc.property(fc.array(win, { minLength: 1, maxLength: 100 }), fc.nat(), fc.nat(), (wins, cut, probe) => {
        const options = { blockSize: 4, denseScores: 32 };
        const first = new Ranking(tieBreak, options);
        const model = new NaiveRanking(tieBreak);
        const saveAt = cut % (wins.length + 1);
        wins.forEach(([user, points], i) => {
          if (i < saveAt) first.apply(i + 1, `u${user}`, points);
          model.apply(i + 1, `u${user}`, points);
        });
        // Saved entries come back in any order (the checkpoint table is keyed by user id).
        const saved = takenEntries(first).reverse();
        const restored = new Ranking(tieBreak, options);
        for (const entry of saved) restored.restore(entry);
        restored.restoredUpTo(saveAt);
        wins.forEach(([user, points], i) => {
          if (i >= saveAt) restored.apply(i + 1, `u${user}`, points);
        });
        agree(restored, model, probe);
      }),
      { numRuns: 300, seed },
    );
    t.pass('300 restores agree');
  });

  t.test(
    `a replay sized by a wrong hint (zero, too small, exact, too large, not a number) agrees with the model (${tieBreak})`,
    async (t) => {
      // The hint is the win log's estimate of its players: any value may only cost time.
      const seed = Number(process.env.PROPERTY_SEED ?? 20261128);
      t.comment(`seed ${seed} (set PROPERTY_SEED to replay)`);
      const win = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 40 }), fc.nat(9));
      const hint = fc.oneof(
        fc.constant(0),
        fc.constant(Number.NaN),
        fc.constant(-5),
        fc.double({ min: 0, max: 4, noNaN: true }),
      );
      fc.assert(
        fc.property(
          fc.array(win, { minLength: 1, maxLength: 150 }),
          hint,
          fc.boolean(),
          fc.nat(),
          (wins, share, restoredFirst, probe) => {
            const options = { blockSize: 4, denseScores: 16, bulkPlacement: 3 };
            const ranking = new Ranking(tieBreak, options);
            const model = new NaiveRanking(tieBreak);
            const players = new Set(wins.map(([user]) => user)).size;
            const split = restoredFirst ? wins.length >> 1 : 0;
            // Half the log applied and read first (a restored ranking), or none (a rebuild).
            wins.forEach(([user, points], i) => {
              if (i >= split) return;
              ranking.apply(i + 1, `u${user}`, points);
              model.apply(i + 1, `u${user}`, points);
            });
            if (split > 0) agree(ranking, model, probe);
            ranking.reserve(share * players);
            wins.forEach(([user, points, cut], i) => {
              if (i < split) return;
              ranking.apply(i + 1, `u${user}`, points);
              model.apply(i + 1, `u${user}`, points);
              if (cut === 1) agree(ranking, model, probe + i);
            });
            agree(ranking, model, probe);
            // Players after the replay's placement (and its trim) still land right.
            ranking.apply(wins.length + 1, 'late', 7);
            model.apply(wins.length + 1, 'late', 7);
            agree(ranking, model, probe);
          },
        ),
        { numRuns: 300, seed },
      );
      t.pass('300 hinted replays agree');
    },
  );

  t.test(`scores near the top of the exact range (2^53) rank correctly (${tieBreak})`, async (t) => {
    const top = Number.MAX_SAFE_INTEGER - 10_000_000;
    const ranking = new Ranking(tieBreak);
    const model = new NaiveRanking(tieBreak);
    const players: Array<[string, number, number]> = [
      ['a', top, 1],
      ['b', top + 1_000_000, 2],
      ['c', top, 3],
      ['d', 5, 4],
      ['e', 2 ** 32 + 7, 5],
    ];
    for (const [userId, score, seq] of players) {
      ranking.restore({ userId, score, seq });
      model.set(userId, score, seq);
    }
    ranking.restoredUpTo(5);
    const wins: Array<[string, number]> = [
      ['a', 1_000_000],
      ['d', 1_000_000],
      ['c', 999_999],
      ['e', 1],
      ['f', 1_000_000],
    ];
    wins.forEach(([user, points], i) => {
      ranking.apply(6 + i, user, points);
      model.apply(6 + i, user, points);
    });
    agree(ranking, model, 3);
    t.same(
      ranking.top(0, 3).map((s) => [s.userId, s.score]),
      [
        ['b', top + 1_000_000],
        ['a', top + 1_000_000],
        ['c', top + 999_999],
      ],
    );
  });
}
