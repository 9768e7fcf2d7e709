/**
 * The fewest processors asked for over any range of a queue's positions (a segment tree of
 * minimums), so that a sweep can go from one job that may fit to the next without looking at
 * the jobs in between that ask for more processors than are free. Positions are integers the
 * queue hands out in its order; an empty position holds +∞.
 */
export class ProcsIndex {
  /** Leaves at [capacity, 2 × capacity); node i is the minimum of its children 2i and 2i + 1. */
  private tree: Float64Array;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(Math.log2(capacity)))
      throw new Error(`assertion: capacity ${capacity} is not a power of two`);
    this.tree = new Float64Array(2 * capacity).fill(Number.POSITIVE_INFINITY);
  }

  /** The fewest processors over every position. */
  get min(): number {
    return this.tree[1]!;
  }

  set(pos: number, procs: number): void {
    let i = pos + this.capacity;
    this.tree[i] = procs;
    for (i >>= 1; i >= 1; i >>= 1) {
      const m = Math.min(this.tree[2 * i]!, this.tree[2 * i + 1]!);
      if (this.tree[i] === m) break;
      this.tree[i] = m;
    }
  }

  clear(pos: number): void {
    this.set(pos, Number.POSITIVE_INFINITY);
  }

  /** The first position at or after `from` asking for at most `limit` processors, or -1. */
  nextAtMost(from: number, limit: number): number {
    if (from >= this.capacity) return -1;
    let i = from + this.capacity;
    if (this.tree[i]! <= limit) return from;
    // Up until a right sibling's subtree holds a match, then down to its leftmost match.
    for (;;) {
      while (i & 1) {
        i >>= 1;
        if (i <= 1) return -1;
      }
      i += 1;
      if (this.tree[i]! <= limit) break;
    }
    while (i < this.capacity) i = this.tree[2 * i]! <= limit ? 2 * i : 2 * i + 1;
    return i - this.capacity;
  }
}
