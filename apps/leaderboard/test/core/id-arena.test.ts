import t from 'tap';
import { Ranking } from '../../src/core/ranking.ts';
import { UserIdTable } from '../../src/core/user-id-table.ts';

// A small arena stands for the 4 GiB one: 40 bytes, of which 10 are kept for ids admitted in flight.
const idArena = { bytes: 40, headroom: 10 };
const HEX = '0123456789abcdef01234567';

t.test('a new id kept as bytes is admitted only while the arena has room beyond the headroom', async (t) => {
  const table = new UserIdTable(undefined, idArena);
  for (const id of ['player_1', 'player_2', 'player_3']) {
    t.ok(table.admits(id));
    table.intern(id);
  }
  t.ok(table.admits('abcdef'), '24 bytes used + 6 ≤ 40 - 10');
  t.notOk(table.admits('player_4'), '24 + 8 > 40 - 10: refused');
  t.ok(table.admits('player_2'), 'a known id, always');
  t.ok(table.admits(HEX), 'a hex id, always: it takes no arena bytes');
  // Ids admitted before the arena filled and interned after (their wins were being logged) fit
  // in the headroom; past the whole arena, interning still refuses, and keeps nothing.
  table.intern('player_4');
  table.intern('player_5');
  t.throws(() => table.intern('x'), RangeError);
  t.equal(table.size, 5);
  t.equal(table.handleOf('x'), -1);
  t.equal(table.idOf(table.handleOf('player_5')), 'player_5');
  t.ok(table.intern(HEX) >= 0 && table.handleOf(HEX) >= 0, 'hex ids still come in');
});

t.test('the ranking answers admits before anything is applied, in both tie-break modes', async (t) => {
  for (const tieBreak of ['shared', 'earliest'] as const) {
    const ranking = new Ranking(tieBreak, { idArena });
    let seq = 0;
    for (const id of ['player_1', 'player_2', 'player_3']) ranking.apply(++seq, id, 1);
    t.notOk(ranking.admits('player_4'), tieBreak);
    t.ok(ranking.admits('player_1'), `${tieBreak}: a known player`);
    t.equal(ranking.size, 3, `${tieBreak}: asking applies nothing`);
    t.ok(ranking.apply(seq + 1, 'player_1', 2));
    t.same(ranking.standing('player_1'), { userId: 'player_1', score: 3, rank: 1 });
  }
});
