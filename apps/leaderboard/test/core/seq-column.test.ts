import t from 'tap';
import { SeqColumn } from '../../src/core/seq-column.ts';
import { UserIdTable } from '../../src/core/user-id-table.ts';

t.test(
  'seqs live in the id table’s value words, and widen to a column of their own past 32 bits',
  async (t) => {
    const table = new UserIdTable();
    const seqs = new SeqColumn(table);
    const ids = Array.from({ length: 5000 }, (_, i) => `player_${i}`);
    for (const [i, id] of ids.entries()) seqs.set(table.intern(id), 1_000_000 + i);
    t.equal(seqs.byteLength, 0, 'narrow: no bytes of its own');
    t.equal(seqs.get(table.handleOf('player_42')), 1_000_042);
    t.equal(table.valueOf(table.handleOf('player_42')), 42, 'the distance from the first seq');

    // A seq more than 2^31 past the first widens the column; the seqs held so far are kept.
    const far = 1_000_000 + 2 ** 33;
    seqs.set(table.handleOf('player_7'), far);
    t.ok(seqs.byteLength >= 8 * table.capacity, 'wide: 8 bytes a slot');
    t.equal(seqs.get(table.handleOf('player_7')), far);
    t.equal(seqs.get(table.handleOf('player_42')), 1_000_042);

    // Wide, the column follows a move of the table's slots through renumber (as the ranking calls it).
    const moved = new UserIdTable((map, capacity) => wide.renumber(map, capacity));
    const wide = new SeqColumn(moved);
    wide.set(moved.intern('a'), 10);
    wide.set(moved.intern('b'), 10 + 2 ** 40);
    for (let i = 0; i < 3000; i++) {
      const handle = moved.intern(`p${i}`);
      wide.set(handle, 20 + i);
    }
    t.equal(wide.get(moved.handleOf('a')), 10);
    t.equal(wide.get(moved.handleOf('b')), 10 + 2 ** 40);
    t.equal(wide.get(moved.handleOf('p2999')), 3019);
  },
);
