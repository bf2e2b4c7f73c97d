import fc from 'fast-check';
import t from 'tap';
import { RankOrder } from '../../src/core/rank-order.ts';

t.test(
  'inserts, removals and whole loads agree with an array (tiny blocks split, merge and drop)',
  async (t) => {
    const seed = Number(process.env.PROPERTY_SEED ?? 20261122);
    const op = fc.tuple(fc.boolean(), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 30 }));
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 16 }), fc.array(op, { maxLength: 300 }), (blockSize, ops) => {
        const order = new RankOrder(blockSize);
        const model: number[] = [];
        let next = 0;
        for (const [insert, a, b, load] of ops) {
          if (load === 0) {
            // A bulk placement: the same handles in a new order, plus a few new ones.
            const rotated = [
              ...model.slice(a % (model.length + 1)),
              ...model.slice(0, a % (model.length + 1)),
            ];
            for (let i = 0; i < b % 5; i++) rotated.push(next++);
            model.splice(0, model.length, ...rotated);
            order.load(Int32Array.from(model));
          } else if (insert || model.length === 0) {
            const position = a % (model.length + 1);
            order.insert(position, next);
            model.splice(position, 0, next++);
          } else {
            const handle = model[a % model.length]!;
            const position = order.remove(handle);
            const expected = model.indexOf(handle);
            if (position !== expected)
              throw new Error(`remove(${handle}) gave ${position}, expected ${expected}`);
            model.splice(expected, 1);
          }
          const probe = model.length === 0 ? -1 : model[b % model.length]!;
          if (probe >= 0 && order.positionOf(probe) !== model.indexOf(probe))
            throw new Error(
              `positionOf(${probe}) = ${order.positionOf(probe)}, expected ${model.indexOf(probe)}`,
            );
        }
        const walked: number[] = [];
        order.forEachFrom(0, (handle) => walked.push(handle) > 0);
        if (JSON.stringify(walked) !== JSON.stringify(model))
          throw new Error(`order ${JSON.stringify(walked)}\n expected ${JSON.stringify(model)}`);
        if (order.size !== model.length) throw new Error(`size ${order.size}, expected ${model.length}`);
        for (let i = 0; i < model.length; i++)
          if (order.at(i) !== model[i]) throw new Error(`at(${i}) = ${order.at(i)}, expected ${model[i]}`);
      }),
      { numRuns: 300, seed },
    );
    t.pass('300 random operation streams agree');
  },
);

t.test('a load fills whole blocks, past the 2-byte block numbers', async (t) => {
  const order = new RankOrder(4, 8);
  const handles = Int32Array.from({ length: 4 * 20 + 3 }, (_, i) => (i * 37) % 83);
  order.load(handles);
  t.equal(order.size, handles.length);
  t.equal(order.fill, handles.length / (21 * 4));
  for (const [position, handle] of handles.entries()) {
    if (order.positionOf(handle) !== position) t.fail(`positionOf(${handle})`);
    if (order.at(position) !== handle) t.fail(`at(${position})`);
  }
  order.insert(5, 1000);
  t.equal(order.positionOf(1000), 5);
  t.equal(order.remove(handles[82]!), 83);
  order.load(new Int32Array(0));
  t.equal(order.size, 0);
  order.insert(0, 7);
  t.equal(order.at(0), 7);
});

t.test('emptied blocks are dropped together, and the blocks past the new count take their ids', async (t) => {
  const order = new RankOrder(4);
  const model: number[] = [];
  for (let handle = 0; handle < 160; handle++) {
    order.insert(handle, handle);
    model.push(handle);
  }
  // Empty the first blocks (low ids) and every other later one: the drop moves high ids down.
  for (const handle of [...model]) {
    if (handle < 48 || (handle >= 100 && handle % 8 < 4)) {
      t.equal(order.remove(handle), model.indexOf(handle));
      model.splice(model.indexOf(handle), 1);
    }
  }
  order.insert(3, 1000);
  model.splice(3, 0, 1000);
  order.insert(model.length, 1001);
  model.push(1001);
  const walked: number[] = [];
  order.forEachFrom(0, (handle) => walked.push(handle) > 0);
  t.same(walked, model);
  for (const [position, handle] of model.entries()) {
    if (order.positionOf(handle) !== position) t.fail(`positionOf(${handle})`);
    if (order.at(position) !== handle) t.fail(`at(${position})`);
  }
  t.ok(order.fill > 0.5, `blocks ${(order.fill * 100).toFixed(0)} % full after the drops`);
  for (const handle of [...model]) order.remove(handle);
  t.equal(order.size, 0);
  order.insert(0, 5);
  t.equal(order.at(0), 5);
});

t.test('a rebuild (players arriving at the end of their score run) leaves full blocks behind', async (t) => {
  const blockSize = 64;
  const order = new RankOrder(blockSize);
  const n = blockSize * 1000;
  const atLeast = new Array<number>(11).fill(0); // players with a score ≥ s, s = 1 … 10
  for (let i = 0; i < n; i++) {
    const score = 1 + ((i * 7919) % 10);
    order.insert(atLeast[score]!, i);
    for (let s = 1; s <= score; s++) atLeast[s]!++;
  }
  // 4 bytes a handle in the blocks, 2 for blockOf, and the unused capacity of both.
  const perPlayer = order.byteLength / n;
  t.ok(perPlayer < (4 / 0.9 + 2) * 1.25, `${perPlayer.toFixed(2)} bytes per player`);
});
