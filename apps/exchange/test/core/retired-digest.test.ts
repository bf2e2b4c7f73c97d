import t from 'tap';
import type { Execution } from '../../src/core/messages.ts';
import { FOLD_EVERY, RetiredDigest } from '../../src/core/retired-digest.ts';

const execution = (id: number, quantity = 1): Execution => ({
  id,
  seq: id,
  orderId: 1,
  account: 'a',
  symbol: 'AAPL',
  side: 'buy',
  price: 10,
  orderType: 'limit',
  quantity,
  counterOrderId: 2,
  at: 5,
});

const records = (n: number) => Array.from({ length: n }, (_, i) => execution(i));

t.test('the fold depends on the records only, not on where a snapshot cut them', async (t) => {
  const all = records(FOLD_EVERY * 2 + 7);
  const straight = new RetiredDigest();
  for (const record of all) straight.add(record);
  t.equal(straight.tail.length, 7, 'folded a block at a time');
  t.match(straight.hash, /^[0-9a-f]{64}$/);
  for (const cut of [0, 1, FOLD_EVERY - 1, FOLD_EVERY, FOLD_EVERY + 3, all.length]) {
    const first = new RetiredDigest();
    for (const record of all.slice(0, cut)) first.add(record);
    const copy = JSON.parse(JSON.stringify([first.hash, first.tail])) as [string, string[]];
    const resumed = RetiredDigest.restore(copy[0], copy[1]);
    for (const record of all.slice(cut)) resumed.add(record);
    t.same([resumed.hash, resumed.tail], [straight.hash, straight.tail], `cut at ${cut}`);
  }
  const read = new RetiredDigest();
  for (const [i, record] of all.entries()) {
    read.add(record);
    // Read now and then (a digest, a snapshot): folding lazily gives the same hash.
    if (i % 333 === 0) t.match(read.hash, /^([0-9a-f]{64})?$/);
  }
  t.same([read.hash, read.tail], [straight.hash, straight.tail], 'read between adds');
  const changed = new RetiredDigest();
  for (const record of all) changed.add(record.id === 5 ? execution(5, 2) : record);
  t.not(changed.hash, straight.hash, 'a changed record in a folded block changes the hash');
});
