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
  t.ok(table.admits('abcdef'), '24 bytes used + 6 ≤ 40 - 10 (and 6 reserved)');
  t.notOk(table.admits('player_4'), '24 + 6 reserved + 8 > 40 - 10: refused');
  t.ok(table.admits('player_2'), 'a known id, always');
  t.ok(table.admits(HEX), 'a hex id, always: it takes no arena bytes');
  table.dropAdmitted('abcdef');
  t.notOk(table.admits('player_4'), 'dropped, its 6 bytes are free again, but 24 + 8 > 30');
  t.ok(table.admits('wxyz12'), '24 + 6 ≤ 30 once the dropped reservation is given back');
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
  for (let i = 0; i < 100; i++) if (table.admits(`inflight_${i}`)) admitted.push(`inflight_${i}`);
  t.same(admitted, ['inflight_0', 'inflight_1', 'inflight_2']);
  for (const id of admitted) table.intern(id);
  t.equal(table.size, 3, 'every admitted id stored');
  t.notOk(table.admits('another_1'), 'the arena is as full as admitting allows');
});

t.test('a reservation ends when its id is stored or its win dropped, once per admission', async (t) => {
  const table = new UserIdTable(undefined, { bytes: 20, headroom: 0 });
  t.ok(table.admits('twice_a'));
  t.ok(table.admits('twice_a'), 'the same new id twice in flight: 14 of 20 bytes reserved');
  t.notOk(table.admits('other_b'), '14 + 7 > 20');
  table.dropAdmitted('twice_a');
  t.ok(table.admits('other_b'), 'one admission dropped: 7 + 7 ≤ 20');
  table.intern('twice_a');
  table.dropAdmitted('twice_a');
  t.ok(table.admits('abc'), 'stored: 7 used + 7 reserved (other_b) + 3 ≤ 20');
  t.notOk(table.admits('defg'), '17 + 4 > 20: the drop after the store gave nothing back');
  table.dropAdmitted('never_admitted');
  t.notOk(table.admits('defg'), 'dropping an id never admitted frees nothing');
});

t.test('the ranking answers admits before anything is applied, in both tie-break modes', async (t) => {
  for (const tieBreak of ['shared', 'earliest'] as const) {
    const ranking = new Ranking(tieBreak, { idArena });
    let seq = 0;
    for (const id of ['player_1', 'player_2', 'player_3']) ranking.apply(++seq, id, 1);
    t.notOk(ranking.admits('player_4'), tieBreak);
    t.ok(ranking.admits('player_1'), `${tieBreak}: a known player`);
    t.equal(ranking.size, 3, `${tieBreak}: asking applies nothing`);
    t.ok(ranking.admits('abcdef'), `${tieBreak}: 24 + 6 ≤ 30`);
    t.notOk(ranking.admits('ghijkl'), `${tieBreak}: 6 bytes are reserved for abcdef`);
    ranking.dropAdmitted('abcdef');
    t.ok(ranking.admits('ghijkl'), `${tieBreak}: abcdef's win dropped, its room is free`);
    t.ok(ranking.apply(seq + 1, 'player_1', 2));
    t.same(ranking.standing('player_1'), { userId: 'player_1', score: 3, rank: 1 });
  }
});
