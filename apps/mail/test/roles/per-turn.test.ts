import t from 'tap';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { perTurn } from '../../src/roles/per-turn.ts';

t.test(
  'what one turn hands over is passed on as one list at its end, the next turn as another',
  async (t) => {
    const flushed: number[][] = [];
    const add = perTurn<number>((items) => flushed.push(items));
    add(1);
    add(2);
    await Promise.resolve();
    add(3); // a microtask of the same turn
    t.same(flushed, [], 'nothing passed on during the turn');
    await nextTurn();
    t.same(flushed, [[1, 2, 3]]);
    add(4);
    await nextTurn();
    t.same(flushed, [[1, 2, 3], [4]], 'a later turn is a list of its own');
    await nextTurn();
    t.equal(flushed.length, 2, 'a turn with nothing handed over passes nothing on');
  },
);
