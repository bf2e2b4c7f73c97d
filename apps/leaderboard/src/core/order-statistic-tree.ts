/**
 * An order-statistic treap over players, in typed arrays, for O(log n) update, rank and select.
 *
 * Order: higher score first; on equal scores the lower `seq` (the player who reached the score
 * first) comes first. The key is (score, seq); seq values are unique, so the order is total and
 * a rebuild from the win log reproduces it exactly.
 *
 * A node is the player's handle (from UserIdTable), so there is no node pool. Priorities come from
 * a hash of the handle rather than a random generator, which keeps the structure deterministic;
 * the hash spreads handles well enough for the expected O(log n) depth.
 */
const NIL = -1;

export class OrderStatisticTree {
  #score: Float64Array = new Float64Array(1 << 12);
  #seq: Float64Array = new Float64Array(1 << 12);
  #left: Int32Array = new Int32Array(1 << 12).fill(NIL);
  #right: Int32Array = new Int32Array(1 << 12).fill(NIL);
  #size: Int32Array = new Int32Array(1 << 12);
  #root = NIL;
  #count = 0;
  // Out-parameters of #split, so that splitting allocates nothing.
  #splitLeft = NIL;
  #splitRight = NIL;

  get size(): number {
    return this.#count;
  }

  get byteLength(): number {
    return (
      this.#score.byteLength +
      this.#seq.byteLength +
      this.#left.byteLength +
      this.#right.byteLength +
      this.#size.byteLength
    );
  }

  has(node: number): boolean {
    return node < this.#size.length && this.#size[node]! > 0;
  }

  scoreOf(node: number): number {
    return this.#score[node]!;
  }

  seqOf(node: number): number {
    return this.#seq[node]!;
  }

  /** Adds `node` with its key, or moves it to its new key when it is already in the tree. */
  set(node: number, score: number, seq: number): void {
    if (this.has(node)) this.#root = this.#remove(this.#root, node);
    else {
      this.#ensureCapacity(node + 1);
      this.#count++;
    }
    this.#score[node] = score;
    this.#seq[node] = seq;
    this.#left[node] = NIL;
    this.#right[node] = NIL;
    this.#size[node] = 1;
    this.#root = this.#insert(this.#root, node);
  }

  /** How many nodes come before `node` in the order (0 for the leader). */
  positionOf(node: number): number {
    return this.#countBefore(this.#score[node]!, this.#seq[node]!);
  }

  /** How many nodes have a score strictly higher than `score`. */
  countAbove(score: number): number {
    return this.#countBefore(score, -Infinity);
  }

  /** The node at `position` (0-based), or -1 when the tree has fewer nodes. */
  at(position: number): number {
    if (position < 0 || position >= this.#count) return NIL;
    let t = this.#root;
    let k = position;
    while (t !== NIL) {
      const leftSize = this.#sizeOf(this.#left[t]!);
      if (k < leftSize) t = this.#left[t]!;
      else if (k === leftSize) return t;
      else {
        k -= leftSize + 1;
        t = this.#right[t]!;
      }
    }
    return NIL;
  }

  /** Calls `visit` for each node in order; stops early when `visit` returns false. */
  forEach(visit: (node: number) => boolean | void): void {
    const stack: number[] = [];
    let t = this.#root;
    while (t !== NIL || stack.length > 0) {
      while (t !== NIL) {
        stack.push(t);
        t = this.#left[t]!;
      }
      const node = stack.pop()!;
      if (visit(node) === false) return;
      t = this.#right[node]!;
    }
  }

  #countBefore(score: number, seq: number): number {
    let count = 0;
    let t = this.#root;
    while (t !== NIL) {
      if (this.#precedesKey(t, score, seq)) {
        count += this.#sizeOf(this.#left[t]!) + 1;
        t = this.#right[t]!;
      } else t = this.#left[t]!;
    }
    return count;
  }

  #precedesKey(node: number, score: number, seq: number): boolean {
    const s = this.#score[node]!;
    return s > score || (s === score && this.#seq[node]! < seq);
  }

  #precedes(a: number, b: number): boolean {
    return this.#precedesKey(a, this.#score[b]!, this.#seq[b]!);
  }

  #sizeOf(node: number): number {
    return node === NIL ? 0 : this.#size[node]!;
  }

  #update(node: number): void {
    this.#size[node] = this.#sizeOf(this.#left[node]!) + this.#sizeOf(this.#right[node]!) + 1;
  }

  #insert(t: number, node: number): number {
    if (t === NIL) return node;
    if (outranks(node, t)) {
      this.#split(t, node);
      this.#left[node] = this.#splitLeft;
      this.#right[node] = this.#splitRight;
      this.#update(node);
      return node;
    }
    this.#size[t]!++;
    if (this.#precedes(node, t)) this.#left[t] = this.#insert(this.#left[t]!, node);
    else this.#right[t] = this.#insert(this.#right[t]!, node);
    return t;
  }

  #remove(t: number, node: number): number {
    if (t === node) return this.#merge(this.#left[node]!, this.#right[node]!);
    this.#size[t]!--;
    if (this.#precedes(node, t)) this.#left[t] = this.#remove(this.#left[t]!, node);
    else this.#right[t] = this.#remove(this.#right[t]!, node);
    return t;
  }

  /** Splits `t` into the nodes preceding `pivot` (#splitLeft) and the rest (#splitRight). */
  #split(t: number, pivot: number): void {
    if (t === NIL) {
      this.#splitLeft = NIL;
      this.#splitRight = NIL;
    } else if (this.#precedes(t, pivot)) {
      this.#split(this.#right[t]!, pivot);
      this.#right[t] = this.#splitLeft;
      this.#update(t);
      this.#splitLeft = t;
    } else {
      this.#split(this.#left[t]!, pivot);
      this.#left[t] = this.#splitRight;
      this.#update(t);
      this.#splitRight = t;
    }
  }

  /** Joins two treaps where every node of `a` precedes every node of `b`. */
  #merge(a: number, b: number): number {
    if (a === NIL) return b;
    if (b === NIL) return a;
    if (outranks(a, b)) {
      this.#right[a] = this.#merge(this.#right[a]!, b);
      this.#update(a);
      return a;
    }
    this.#left[b] = this.#merge(a, this.#left[b]!);
    this.#update(b);
    return b;
  }

  #ensureCapacity(nodes: number): void {
    if (nodes <= this.#size.length) return;
    let capacity = this.#size.length;
    while (capacity < nodes) capacity *= 2;
    this.#score = growFloat(this.#score, capacity);
    this.#seq = growFloat(this.#seq, capacity);
    this.#left = growInt(this.#left, capacity, NIL);
    this.#right = growInt(this.#right, capacity, NIL);
    this.#size = growInt(this.#size, capacity, 0);
  }
}

/** Heap order of the treap: true when `a` belongs above `b`. */
function outranks(a: number, b: number): boolean {
  const pa = priority(a);
  const pb = priority(b);
  return pa > pb || (pa === pb && a < b);
}

/** murmur3's 32-bit finaliser: a fixed, well-mixed priority per handle. */
function priority(node: number): number {
  let h = node ^ 0x9e3779b9;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function growFloat(from: Float64Array, capacity: number): Float64Array {
  const to = new Float64Array(capacity);
  to.set(from);
  return to;
}

function growInt(from: Int32Array, capacity: number, fill: number): Int32Array {
  const to = new Int32Array(capacity);
  if (fill !== 0) to.fill(fill, from.length);
  to.set(from);
  return to;
}
