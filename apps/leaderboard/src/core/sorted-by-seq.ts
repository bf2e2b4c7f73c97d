/** Indices of `seqs` in ascending seq order (a radix sort when the seqs span less than 2^32). */
export function sortedBySeq(seqs: Float64Array): Uint32Array {
  const n = seqs.length;
  let min = Infinity;
  let max = -Infinity;
  for (const seq of seqs) {
    if (seq < min) min = seq;
    if (seq > max) max = seq;
  }
  let order = Uint32Array.from({ length: n }, (_, i) => i);
  // A radix pass clears and sums 65,536 counters: for a few seqs (a player met between two reads,
  // on every score update of a new player) a comparison sort is far cheaper.
  if (n < SMALL || max - min >= 2 ** 32) return order.sort((a, b) => seqs[a]! - seqs[b]!);
  let next = new Uint32Array(n);
  const counts = new Uint32Array(1 << 16);
  for (let shift = 0; shift < 32; shift += 16) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[digit(seqs[i]! - min, shift)]!++;
    let sum = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const index = order[i]!;
      next[counts[digit(seqs[index]! - min, shift)]!++] = index;
    }
    [order, next] = [next, order];
  }
  return order;
}

const SMALL = 1024;

function digit(value: number, shift: number): number {
  return shift === 0 ? value & 0xffff : Math.floor(value / 65536) & 0xffff;
}
