/** Indices of `seqs` in ascending seq order (a radix sort when the seqs span less than 2^32). */
export function sortedBySeq(seqs: Float64Array): Uint32Array {
  const n = seqs.length;
  let min = Infinity;
  let max = -Infinity;
  // Already in order (a replay of one win per player, seqs written in handle order): one pass.
  let ascending = true;
  for (let i = 0; i < n; i++) {
    const seq = seqs[i]!;
    if (seq < max) ascending = false;
    if (seq < min) min = seq;
    if (seq > max) max = seq;
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (ascending) return order;
  // A radix pass clears and sums 65,536 counters: for a few seqs (a player met between two reads,
  // on every score update of a new player) a comparison sort is far cheaper.
  if (n < SMALL || max - min >= 2 ** 32) return order.sort((a, b) => seqs[a]! - seqs[b]!);
  // The keys as 32-bit distances from the smallest seq, made once for both passes.
  const keys = new Uint32Array(n);
  for (let i = 0; i < n; i++) keys[i] = seqs[i]! - min;
  let next = new Uint32Array(n);
  const counts = new Uint32Array(1 << 16);
  for (let shift = 0; shift < 32; shift += 16) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(keys[i]! >>> shift) & 0xffff]!++;
    let sum = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const index = order[i]!;
      next[counts[(keys[index]! >>> shift) & 0xffff]!++] = index;
    }
    [order, next] = [next, order];
  }
  return order;
}

const SMALL = 1024;
