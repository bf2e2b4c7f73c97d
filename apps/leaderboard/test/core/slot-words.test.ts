import t from 'tap';
import { Ranking } from '../../src/core/ranking.ts';
import { SlotWords } from '../../src/core/slot-words.ts';
import type { Standing } from '../../src/core/standing.ts';
import { UserIdTable } from '../../src/core/user-id-table.ts';

t.test(
  "a slot's block id sits beside its key and leaves the keys of both slots of its pair alone",
  async (t) => {
    const slots = new SlotWords(5);
    const keys = Uint32Array.from(slots.words);
    for (let slot = 0; slot < 5; slot++) slots.set(slot, 0xfff0 + slot);
    for (let slot = 0; slot < 5; slot++) t.equal(slots.get(slot), 0xfff0 + slot);
    slots.set(2, 7);
    t.same([slots.get(1), slots.get(2), slots.get(3)], [0xfff1, 7, 0xfff3], 'neighbours unchanged');
    // Only the block words (the fourth of each seven) changed: the key words are untouched.
    t.ok(
      slots.words.every((word, i) => i % 7 === 3 || word === keys[i]),
      'no key word written',
    );
    t.equal(slots.byteLength, 0, 'narrow: no bytes beyond the slots');
  },
);

t.test('wide block ids keep their high bits apart, and narrowing keeps the low ones', async (t) => {
  const slots = new SlotWords(4);
  slots.set(1, 9);
  slots.widen();
  t.ok(slots.wide);
  t.equal(slots.get(1), 9, 'widening keeps every value');
  slots.set(2, 0x1_2345);
  slots.set(3, 0xffff_fffe);
  t.same([slots.get(1), slots.get(2), slots.get(3)], [9, 0x1_2345, 0xffff_fffe]);
  t.equal(slots.byteLength, 8, '2 bytes a slot while wide');
  slots.set(2, 40);
  slots.narrow();
  t.notOk(slots.wide);
  t.same([slots.get(1), slots.get(2)], [9, 40]);
});

t.test('a rehash moves each block id with its id, narrow and wide', async (t) => {
  for (const wide of [false, true]) {
    const table = new UserIdTable();
    const blocks = table.blockIds;
    if (wide) blocks.widen();
    const ids = Array.from({ length: 5_000 }, (_, i) => (i % 3 === 0 ? `p_${i}` : `${i}`.padStart(24, 'a')));
    const value = (i: number): number => (wide ? 0x10000 + i * 7 : (i * 7) & 0xffff);
    // Interning 5,000 grows the table several times; each id's block id is set after it comes in.
    for (const [i, id] of ids.entries()) blocks.set(table.intern(id), value(i));
    table.moveForTest();
    const wrong = ids.filter((id, i) => blocks.get(table.handleOf(id)) !== value(i));
    t.same(wrong, [], `${wide ? 'wide' : 'narrow'}: every block id followed its player`);
  }
});

t.test('past 65,536 blocks a ranking finds its players through the high halves in the slots', async (t) => {
  // Blocks of 2 make 70,000 blocks of 140,000 players: the block ids past 65,535 need the high
  // halves (SlotWords' own array), in the bulk placement and in the moves after it.
  const players = 140_000;
  const scoreOf = (i: number): number => 1 + (i % 1000);
  const wins = Array.from({ length: players }, (_, i) => ({
    seq: i + 1,
    userId: `p${i}`,
    points: scoreOf(i),
  }));
  for (const tieBreak of ['shared', 'earliest'] as const) {
    const ranking = new Ranking(tieBreak, { blockSize: 2 });
    ranking.applyBatch(wins);
    // Each score is held by 140 players, in seq order among themselves.
    const expected = (i: number): Standing => ({
      userId: `p${i}`,
      score: scoreOf(i),
      rank: 1 + 140 * (1000 - scoreOf(i)) + (tieBreak === 'earliest' ? Math.floor(i / 1000) : 0),
    });
    const wrong = wins.filter(
      (_, i) => JSON.stringify(ranking.standing(`p${i}`)) !== JSON.stringify(expected(i)),
    );
    t.same(wrong.length, 0, `${tieBreak}: every player found where the bulk placement put them`);
    // Players of the last blocks (score 1) raised to the top one by one: the wide ids move again.
    const raised = 50;
    for (let k = 0; k < raised; k++) ranking.apply(players + 1 + k, `p${k * 1000}`, 5000);
    const after = (i: number): Standing => {
      if (i % 1000 === 0 && i / 1000 < raised)
        return { userId: `p${i}`, score: 5001, rank: tieBreak === 'earliest' ? 1 + i / 1000 : 1 };
      // Everyone else is 50 places lower, but for a score-1 player in `earliest` the raised ones
      // were ahead of them before too.
      const before = expected(i);
      return { ...before, rank: before.rank + (tieBreak === 'earliest' && before.score === 1 ? 0 : raised) };
    };
    const moved = wins.filter(
      (_, i) => JSON.stringify(ranking.standing(`p${i}`)) !== JSON.stringify(after(i)),
    );
    t.same(moved.length, 0, `${tieBreak}: every player found after the raises`);
  }
});
