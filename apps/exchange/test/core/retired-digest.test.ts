import t from 'tap';
import { FOLD_EVERY, RetiredDigest } from '../../src/core/retired-digest.ts';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `x,${i}`);

t.test('the fold depends on the lines only, not on where a snapshot cut them', async (t) => {
  const all = lines(FOLD_EVERY * 2 + 7);
  const straight = new RetiredDigest();
  for (const line of all) straight.add(line);
  t.equal(straight.tail.length, 7, 'folded a block at a time');
  t.match(straight.hash, /^[0-9a-f]{64}$/);
  for (const cut of [0, 1, FOLD_EVERY - 1, FOLD_EVERY, FOLD_EVERY + 3, all.length]) {
    const first = new RetiredDigest();
    for (const line of all.slice(0, cut)) first.add(line);
    const copy = JSON.parse(JSON.stringify([first.hash, first.tail])) as [string, string[]];
    const resumed = RetiredDigest.restore(copy[0], copy[1]);
    for (const line of all.slice(cut)) resumed.add(line);
    t.same([resumed.hash, resumed.tail], [straight.hash, straight.tail], `cut at ${cut}`);
  }
  const changed = new RetiredDigest();
  for (const line of all) changed.add(line === 'x,5' ? 'x,6' : line);
  t.not(changed.hash, straight.hash, 'a changed line in a folded block changes the hash');
});
