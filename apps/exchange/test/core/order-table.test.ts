import t from 'tap';
import { OrderTable } from '../../src/core/order-table.ts';

/** What the table must answer: a Map's contents, listed by id. */
const byId = (map: ReadonlyMap<number, string>): string[] =>
  [...map].sort(([a], [b]) => a - b).map(([, v]) => v);

t.test('set, get, has, delete and size as a Map; values by id', async (t) => {
  const table = new OrderTable<string>();
  t.equal(table.get(1), undefined);
  table.set(5, 'five');
  table.set(2, 'two');
  table.set(5_000, 'five thousand');
  t.equal(table.get(5), 'five');
  t.ok(table.has(2));
  t.notOk(table.has(3));
  t.equal(table.size, 3);
  table.set(5, 'five again');
  t.equal(table.size, 3, 'a second set of an id replaces');
  t.same([...table.values()], ['two', 'five again', 'five thousand']);
  t.ok(table.delete(2));
  t.notOk(table.delete(2), 'a second delete finds nothing');
  t.equal(table.size, 2);
  t.same([...table.values()], ['five again', 'five thousand']);
});

t.test('ids that are no order id find nothing and cannot be set', async (t) => {
  const table = new OrderTable<string>();
  table.set(1, 'one');
  for (const id of [-1, 1.5, Number.NaN, Infinity, 2 ** 53]) {
    t.equal(table.get(id), undefined, `get ${id}`);
    t.notOk(table.delete(id), `delete ${id}`);
    t.throws(() => table.set(id, 'x'), RangeError, `set ${id}`);
  }
  t.equal(table.size, 1);
});

t.test('ids far apart, past 2^32, and below the first page in use', async (t) => {
  const table = new OrderTable<string>();
  const high = 2 ** 40 + 3;
  table.set(high, 'high');
  table.set(high + 100_000, 'higher');
  table.set(7, 'low');
  t.same([...table.values()], ['low', 'high', 'higher']);
  t.equal(table.get(high), 'high');
  t.ok(table.delete(7));
  t.ok(table.delete(high));
  t.same([...table.values()], ['higher'], 'the pages before it left');
  t.ok(table.delete(high + 100_000));
  t.equal(table.size, 0);
  table.set(3, 'again');
  t.same([...table.values()], ['again'], 'an emptied table starts over');
});

t.test('any mix of sets and deletes answers what a Map does', async (t) => {
  let seed = 11;
  const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const table = new OrderTable<string>();
  const map = new Map<number, string>();
  let next = 1;
  for (let step = 0; step < 60_000; step++) {
    const r = random();
    if (r < 0.5) {
      // Mostly rising ids, as the sequencer gives, now and then one out of order.
      const id = random() < 0.95 ? next++ : Math.floor(random() * next * 2);
      table.set(id, `o${id}#${step}`);
      map.set(id, `o${id}#${step}`);
    } else {
      const id = Math.floor(random() * next);
      if (table.delete(id) !== map.delete(id)) {
        t.fail(`delete ${id} at step ${step}`);
        return;
      }
    }
    const probe = Math.floor(random() * next * 2);
    if (table.get(probe) !== map.get(probe) || table.size !== map.size) {
      t.fail(
        `get ${probe}: ${table.get(probe)} ≠ ${map.get(probe)}, or size ${table.size} ≠ ${map.size}, at step ${step}`,
      );
      return;
    }
    if (step % 5_000 === 0) t.same([...table.values()], byId(map), `values at step ${step}`);
  }
  t.same([...table.values()], byId(map), 'values at the end');
});
