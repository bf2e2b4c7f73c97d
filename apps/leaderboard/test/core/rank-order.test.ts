import fc from 'fast-check';
import t from 'tap';
import { RankOrder } from '../../src/core/rank-order.ts';

t.test(
  'inserts and removals at any position agree with an array (tiny blocks split, merge and drop)',
  async (t) => {
    const seed = Number(process.env.PROPERTY_SEED ?? 20261122);
    const op = fc.tuple(fc.boolean(), fc.nat(), fc.nat());
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 16 }), fc.array(op, { maxLength: 300 }), (blockSize, ops) => {
        const order = new RankOrder(blockSize);
        const model: number[] = [];
        let next = 0;
        for (const [insert, a, b] of ops) {
          if (insert || model.length === 0) {
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
