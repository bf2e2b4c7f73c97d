/** A seeded xorshift32 generator: `next(n)` is in [0, n), the same stream on every run, so runs compare. */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed | 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}
