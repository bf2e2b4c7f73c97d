import t from 'tap';
import {
  descending,
  homeShard,
  inShardOrder,
  mergeDescending,
  rangeShard,
  ranksAbove,
} from '../../../src/adapters/redis/shard-layout.ts';

t.test('homeShard spreads ids and never changes its mind', async (t) => {
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < 4_000; i++) counts[homeShard(`user-${i}`, 4)]!++;
  for (const count of counts) t.ok(count > 800 && count < 1_200, `about a quarter each: ${count}`);
  t.equal(homeShard('alice', 4), homeShard('alice', 4));
  t.equal(homeShard('alice', 1), 0);
});

t.test('rangeShard: shard i holds [bounds[i], bounds[i-1])', async (t) => {
  const bounds = [100, 10];
  t.equal(rangeShard(1_000, bounds), 0);
  t.equal(rangeShard(100, bounds), 0, 'a bound belongs to the shard above it');
  t.equal(rangeShard(99, bounds), 1);
  t.equal(rangeShard(10, bounds), 1);
  t.equal(rangeShard(9, bounds), 2);
  t.equal(rangeShard(5, []), 0, 'no bounds yet: all on the top shard');
});

t.test("ranksAbove and mergeDescending follow Redis' order: score, then member bytewise", async (t) => {
  t.ok(ranksAbove({ member: 'a', encoded: 2 }, { member: 'b', encoded: 1 }));
  t.ok(ranksAbove({ member: 'b', encoded: 1 }, { member: 'a', encoded: 1 }));
  t.ok(ranksAbove({ member: 'é', encoded: 1 }, { member: 'z', encoded: 1 }), 'bytes, not locale');
  t.same(
    mergeDescending([
      [
        { member: 'x', encoded: 9 },
        { member: 'a', encoded: 3 },
      ],
      [
        { member: 'b', encoded: 3 },
        { member: 'c', encoded: 1 },
      ],
    ]).map((e) => e.member),
    ['x', 'b', 'a', 'c'],
  );
});

t.test('descending: each entry ranks above the next, no player twice', async (t) => {
  const e = (member: string, encoded: number) => ({ member, encoded });
  t.ok(descending([e('a', 3), e('c', 2), e('b', 2)]));
  t.ok(descending([]));
  t.notOk(descending([e('a', 3), e('b', 4)]), 'out of order');
  t.notOk(descending([e('b', 2), e('c', 2)]), 'ties by member, bytewise');
  t.notOk(descending([e('a', 3), e('a', 3)]), 'a player twice');
});

t.test('inShardOrder: every shard ranks above the next non-empty one', async (t) => {
  const extent = (first: number, last: number) => ({
    count: 2,
    first: { member: 'm', encoded: first },
    last: { member: 'm', encoded: last },
  });
  const empty = { count: 0, first: undefined, last: undefined };
  t.ok(inShardOrder([extent(9, 5), empty, extent(4, 1)]));
  t.notOk(inShardOrder([extent(9, 5), extent(6, 1)]), 'a player out of its range');
  t.ok(inShardOrder([empty, empty]));
});
