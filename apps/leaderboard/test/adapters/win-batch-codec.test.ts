import { seededRandom } from '@tessera/testkit';
import t from 'tap';
import { decodeWins, encodeWins } from '../../src/adapters/embedded/win-batch-codec.ts';
import type { NewWin } from '../../src/core/win.ts';

t.test('a batch comes back as it went: any text, no match id apart from an empty one', async (t) => {
  const wins: NewWin[] = [
    { period: '2026-11', userId: 'alice', points: 3, matchId: undefined, at: 1_764_288_000_123 },
    { period: '2026-11', userId: '', points: 0, matchId: '', at: 0 },
    { period: '2026-12', userId: 'zoë 🎲', points: 2 ** 40, matchId: 'm-ü-𝄞', at: 1.5 },
    { period: '2026-11', userId: 'bob', points: -7, matchId: 'alice', at: Number.MAX_SAFE_INTEGER },
  ];
  const decoded = decodeWins(encodeWins(wins));
  t.same(decoded, wins);
  t.equal(decoded[0]!.matchId, undefined, 'no match id stays none');
  t.equal(decoded[1]!.matchId, '', 'an empty match id stays a match id');
  t.same(decodeWins(encodeWins([])), []);
});

t.test('random batches of random text round-trip', async (t) => {
  const random = seededRandom(11);
  const text = (): string =>
    String.fromCodePoint(
      ...Array.from({ length: random(12) }, () =>
        random(4) === 0 ? 0x1f000 + random(500) : 32 + random(300),
      ),
    );
  for (let round = 0; round < 200; round++) {
    const wins: NewWin[] = Array.from({ length: random(70) }, () => ({
      period: text(),
      userId: text(),
      points: random(1_000_000) - 500_000,
      matchId: random(2) === 0 ? undefined : text(),
      at: random(2 ** 31) * 1000,
    }));
    const { numbers, text: joined } = encodeWins(wins);
    t.equal(numbers.length, wins.length * 5);
    t.same(decodeWins({ numbers, text: joined }), wins, `round ${round}`);
  }
});
