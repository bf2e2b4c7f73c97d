import fc from 'fast-check';
import t from 'tap';
import { RankOrder } from '../../src/core/rank-order.ts';

t.test('moveUp agrees with an array: same block, another block, a full one, an emptied one', async (t) => {
  const seed = Number(process.env.PROPERTY_SEED ?? 20261129);
  // [move (else insert), which handle / where, how far up]
  const op = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.nat(), fc.nat());
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 8 }), fc.array(op, { maxLength: 300 }), (blockSize, ops) => {
      const order = new RankOrder(blockSize);
      const model: number[] = [];
      let next = 0;
      for (const [kind, a, b] of ops) {
        if (kind === 0 || model.length === 0) {
          const position = a % (model.length + 1);
          order.insert(position, next);
          model.splice(position, 0, next++);
          continue;
        }
        const handle = model[a % model.length]!;
        const from = order.locate(handle);
        if (from !== model.indexOf(handle)) throw new Error(`locate(${handle}) = ${from}`);
        const to = from - (b % (from + 1));
        order.moveUp(handle, to);
        model.splice(from, 1);
        model.splice(to, 0, handle);
      }
      const walked: number[] = [];
      order.forEachFrom(0, (handle) => walked.push(handle) > 0);
      if (JSON.stringify(walked) !== JSON.stringify(model))
        throw new Error(`order ${JSON.stringify(walked)}\n expected ${JSON.stringify(model)}`);
      for (const handle of model)
        if (order.positionOf(handle) !== model.indexOf(handle)) throw new Error(`positionOf(${handle})`);
      for (let i = 0; i < model.length; i++) if (order.at(i) !== model[i]) throw new Error(`at(${i})`);
    }),
    { numRuns: 400, seed },
  );
  t.pass('400 random streams of inserts and raises agree');
});

t.test('moveUp refuses a handle that locate did not just find', async (t) => {
  const order = new RankOrder(4);
  for (let i = 0; i < 6; i++) order.insert(i, i);
  order.locate(3);
  t.throws(() => order.moveUp(2, 0), /not located/);
  order.locate(5);
  order.moveUp(5, 0);
  t.throws(() => order.moveUp(5, 0), /not located/, 'a move uses up the location');
});
