import t from 'tap';
import { OrderIndex } from '../../src/core/order-index.ts';
import { rng } from '../../bench/stream.ts';

t.test(
  'agrees with a Map through random inserts, updates and deletes (with growth and clustering)',
  async (t) => {
    const random = rng(99);
    const index = new OrderIndex();
    const model = new Map<number, number>();
    let mismatches = 0;
    for (let step = 0; step < 200_000; step++) {
      // Ids from a small range collide often; a few large ids exercise the high 32 bits of the hash.
      const id = random() < 0.95 ? Math.floor(random() * 5_000) : 2 ** 40 + Math.floor(random() * 100);
      const roll = random();
      if (roll < 0.55) {
        index.set(id, step);
        model.set(id, step);
      } else {
        index.delete(id);
        model.delete(id);
      }
      if (index.get(id) !== (model.get(id) ?? -1)) mismatches++;
    }
    for (const [id, slot] of model) if (index.get(id) !== slot) mismatches++;
    t.equal(mismatches, 0);
    t.equal(index.size, model.size);
  },
);
