import t from 'tap';
import { Ranking } from '../../src/core/ranking.ts';
import { UserIdTable } from '../../src/core/user-id-table.ts';

// A small arena stands for the 4 GiB one: 40 bytes, of which 10 are kept for ids interned without
// being admitted; new ids reserve their room from the start (reserveWithin: the whole arena).
const idArena = { bytes: 40, headroom: 10, reserveWithin: 40 };
const HEX = '0123456789abcdef01234567';

t.test('a new id kept as bytes is admitted only while the arena has room beyond the headroom', async (t) => {
  const table = new UserIdTable(undefined, idArena);
  for (const id of ['player_1', 'player_2', 'player_3']) {
    t.equal(table.admits(id), 'reserved');
    table.intern(id);
  }
  t.equal(table.admits('abcdef'), 'reserved', '24 bytes used + 6 ≤ 40 - 10 (and 6 reserved)');
  t.equal(table.admits('player_4'), 'refused', '24 + 6 reserved + 8 > 40 - 10: refused');
  t.equal(table.admits('player_2'), 'admitted', 'a known id, always');
  t.equal(table.admits(HEX), 'admitted', 'a hex id, always: it takes no arena bytes');
  table.dropAdmitted('abcdef');
  t.equal(table.admits('player_4'), 'refused', 'dropped, its 6 bytes are free again, but 24 + 8 > 30');
  t.equal(table.admits('wxyz12'), 'reserved', '24 + 6 ≤ 30 once the dropped reservation is given back');
  // Ids interned without being admitted (a catch-up of wins logged elsewhere) use the headroom;
  // past the whole arena, interning still refuses, and keeps nothing.
  table.intern('player_4');
  table.intern('wxyz12');
  t.throws(() => table.intern('xyz'), RangeError, '38 + 3 > 40');
  t.equal(table.size, 5);
  t.equal(table.handleOf('xyz'), -1);
  t.equal(table.idOf(table.handleOf('wxyz12')), 'wxyz12');
  t.ok(table.intern(HEX) >= 0 && table.handleOf(HEX) >= 0, 'hex ids still come in');
});

t.test('every new id admitted while many are in flight finds its room when it is stored', async (t) => {
  const table = new UserIdTable(undefined, idArena);
  // Admitted before any is stored, as when thousands of new players' wins are being logged at once:
  // each admission reserves its bytes, so only as many as fit come in (3 of 10 bytes in 40 - 10).
  const admitted: string[] = [];
  for (let i = 0; i < 100; i++)
    if (table.admits(`inflight_${i}`) === 'reserved') admitted.push(`inflight_${i}`);
  t.same(admitted, ['inflight_0', 'inflight_1', 'inflight_2']);
  for (const id of admitted) table.intern(id);
  t.equal(table.size, 3, 'every admitted id stored');
  t.equal(table.admits('another_1'), 'refused', 'the arena is as full as admitting allows');
});

t.test('a reservation ends when its id is stored or its win dropped, once per admission', async (t) => {
  const table = new UserIdTable(undefined, { bytes: 20, headroom: 0, reserveWithin: 20 });
  t.equal(table.admits('twice_a'), 'reserved');
  t.equal(table.admits('twice_a'), 'reserved', 'the same new id twice in flight: 14 of 20 bytes reserved');
  t.equal(table.admits('other_b'), 'refused', '14 + 7 > 20');
  table.dropAdmitted('twice_a');
  t.equal(table.admits('other_b'), 'reserved', 'one admission dropped: 7 + 7 ≤ 20');
  table.intern('twice_a');
  table.dropAdmitted('twice_a');
  t.equal(table.admits('abc'), 'reserved', 'stored: 7 used + 7 reserved (other_b) + 3 ≤ 20');
  t.equal(table.admits('defg'), 'refused', '17 + 4 > 20: the drop after the store gave nothing back');
  table.dropAdmitted('never_admitted');
  t.equal(table.admits('defg'), 'refused', 'dropping an id never admitted frees nothing');
});

t.test('the ranking answers admits before anything is applied, in both tie-break modes', async (t) => {
  for (const tieBreak of ['shared', 'earliest'] as const) {
    const ranking = new Ranking(tieBreak, { idArena });
    let seq = 0;
    for (const id of ['player_1', 'player_2', 'player_3']) ranking.apply(++seq, id, 1);
    t.equal(ranking.admits('player_4'), 'refused', tieBreak);
    t.equal(ranking.admits('player_1'), 'admitted', `${tieBreak}: a known player`);
    t.equal(ranking.size, 3, `${tieBreak}: asking applies nothing`);
    t.equal(ranking.admits('abcdef'), 'reserved', `${tieBreak}: 24 + 6 ≤ 30`);
    t.equal(ranking.admits('ghijkl'), 'refused', `${tieBreak}: 6 bytes are reserved for abcdef`);
    ranking.dropAdmitted('abcdef');
    t.equal(ranking.admits('ghijkl'), 'reserved', `${tieBreak}: abcdef's win dropped, its room is free`);
    t.ok(ranking.apply(seq + 1, 'player_1', 2));
    t.same(ranking.standing('player_1'), { userId: 'player_1', score: 3, rank: 1 });
  }
});

t.test('far from the arena’s end a new id is let in with nothing looked up or reserved', async (t) => {
  // Reserving begins once 40 - 20 = 20 bytes are used or reserved.
  const table = new UserIdTable(undefined, { bytes: 40, headroom: 10, reserveWithin: 20 });
  t.equal(table.admits('player_1'), 'admitted', 'nothing used yet');
  table.intern('player_1');
  table.intern('player_2');
  t.equal(table.admits('player_9'), 'admitted', '16 used: not yet near the end');
  table.intern('player_3');
  t.equal(table.admits('abcdef'), 'reserved', '24 used: new ids reserve from here');
  t.equal(table.admits('player_2'), 'admitted', 'a known id reserves nothing');
  t.equal(table.admits('ghijkl'), 'refused', '24 + 6 reserved + 6 > 40 - 10');
  t.equal(new UserIdTable().admits('player_1'), 'admitted', 'the 4 GiB arena: far from its end');
});
