import t from 'tap';
import { ClientOrderIds } from '../../src/core/client-order-ids.ts';

t.test('an id is known on its trading day only, and the first order recorded stays', async (t) => {
  const ids = new ClientOrderIds();
  t.equal(ids.find('2026-11-23', 'c1'), undefined);
  ids.record('2026-11-23', 'c1', 7);
  ids.record('2026-11-23', 'c1', 8);
  ids.record('2026-11-23', 'c2', 9);
  t.equal(ids.find('2026-11-23', 'c1'), 7);
  t.equal(ids.find('2026-11-24', 'c1'), undefined, 'not on another day');
  t.same(ids.entries(), [
    ['c1', 7],
    ['c2', 9],
  ]);
  // The next day's first order forgets the day before: memory is one day's ids.
  ids.record('2026-11-24', 'c3', 10);
  t.equal(ids.size, 1);
  t.equal(ids.find('2026-11-24', 'c1'), undefined);
  t.equal(ids.find('2026-11-24', 'c3'), 10);
});

t.test('restore gives back the day and the ids in order', async (t) => {
  const ids = ClientOrderIds.restore('2026-11-23', [
    ['a', 1],
    ['b', 2],
  ]);
  t.equal(ids.day, '2026-11-23');
  t.equal(ids.find('2026-11-23', 'b'), 2);
  t.same(ids.entries(), [
    ['a', 1],
    ['b', 2],
  ]);
});
