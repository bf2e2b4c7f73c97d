import t from 'tap';
import { PlayerSketch } from '../../src/adapters/embedded/player-sketch.ts';
import { mix32 } from '../../src/core/typed-arrays.ts';

const hexId = (i: number): string =>
  `${mix32(i).toString(16).padStart(8, '0')}${mix32(i ^ 0x5555)
    .toString(16)
    .padStart(8, '0')}${i.toString(16).padStart(8, '0')}`;

/** Relative error of the sketch's estimate after adding `n` ids (each twice: repeats count once). */
function error(n: number, id: (i: number) => string): number {
  const sketch = new PlayerSketch();
  for (let pass = 0; pass < 2; pass++) for (let i = 0; i < n; i++) sketch.add(id(i));
  return sketch.estimate() / n - 1;
}

t.test('estimates distinct players within 1.2 % (three standard errors), repeats counted once', async (t) => {
  for (const [name, n, id] of [
    ['24-char hex ids', 1_000_000, hexId],
    ['short ids (u0, u1, …)', 300_000, (i: number) => `u${i}`],
    ['sequential hex ids', 400_000, (i: number) => i.toString(16).padStart(24, '0')],
    ['a few players (linear counting)', 5_000, hexId],
    ['one player', 1, hexId],
  ] as const) {
    const e = error(n, id);
    t.ok(Math.abs(e) < 0.012, `${name}, ${n}: ${(e * 100).toFixed(2)} %`);
  }
  t.equal(new PlayerSketch().estimate(), 0, 'an empty sketch counts nobody');
});

t.test('add reports a raised register only when the rank went up', async (t) => {
  const sketch = new PlayerSketch();
  t.equal(sketch.add('alice'), true);
  t.equal(sketch.add('alice'), false, 'the same id never raises its register again');
  let raises = 0;
  for (let i = 0; i < 200_000; i++) if (sketch.add(hexId(i))) raises++;
  // Most ids leave their register as it was once the sketch is warm: few rows to save.
  t.ok(raises < 200_000 / 2, `${raises} raises for 200,000 ids`);
});
