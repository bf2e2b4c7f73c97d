import fc from 'fast-check';
import t from 'tap';
import { BlockSizeTree } from '../../src/core/block-size-tree.ts';

t.test(
  'moveOne leaves every prefix sum as a removal from one block and an insert into another do',
  async (t) => {
    const seed = Number(process.env.PROPERTY_SEED ?? 20261129);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 70 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 40 }),
        (initial, moves) => {
          const n = initial.length;
          const sizes = Int32Array.from(initial.map((size) => size + moves.length));
          const sequence = Int32Array.from({ length: n }, (_, i) => i);
          const tree = new BlockSizeTree();
          tree.reserve(n);
          tree.rebuild(sequence, sizes, n);
          for (const [a, b] of moves) {
            const from = a % n;
            const to = b % n;
            tree.moveOne(from, to);
            sizes[from]!--;
            sizes[to]!++;
            let sum = 0;
            for (let index = 0; index <= n; index++) {
              if (tree.sum(index) !== sum)
                throw new Error(`sum(${index}) = ${tree.sum(index)}, expected ${sum}`);
              sum += index < n ? sizes[index]! : 0;
            }
          }
        },
      ),
      { numRuns: 500, seed },
    );
    t.pass('500 streams of moves agree with the sizes');
  },
);
