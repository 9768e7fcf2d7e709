/**
 * The fewest processors, and the shortest estimate, asked for over any range of a queue's
 * positions (two segment trees of minimums), so that a sweep can go from one job that may start to
 * the next without looking at the jobs in between that cannot: those asking for more processors
 * than are free, and under EASY those that would also run past the head's reservation on
 * processors it needs. Positions are integers the queue hands out in its order; an empty position
 * holds +∞ in both.
 */
export class ProcsIndex {
  /** Leaves at [capacity, 2 × capacity); node i is the minimum of its children 2i and 2i + 1. */
  private readonly procs: Float64Array;
  private readonly estimates: Float64Array;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(Math.log2(capacity)))
      throw new Error(`assertion: capacity ${capacity} is not a power of two`);
    this.procs = new Float64Array(2 * capacity).fill(Number.POSITIVE_INFINITY);
    this.estimates = new Float64Array(2 * capacity).fill(Number.POSITIVE_INFINITY);
  }

  /** The fewest processors over every position. */
  get min(): number {
    return this.procs[1]!;
  }

  set(pos: number, procs: number, estimate_s: number): void {
    const i = pos + this.capacity;
    this.procs[i] = procs;
    this.estimates[i] = estimate_s;
    update(this.procs, i);
    update(this.estimates, i);
  }

  clear(pos: number): void {
    this.set(pos, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  }

  /**
   * The first position at or after `from` whose job asks for at most `free` processors and either
   * at most `spare` or an estimate of at most `estimate_s`; -1 if none. A subtree is passed over
   * when its fewest processors and shortest estimate rule every job in it out; since those two
   * minimums may come from different jobs, a subtree entered may still hold none, and the search
   * goes on to its right.
   */
  next(from: number, free: number, spare: number, estimate_s: number): number {
    if (from >= this.capacity) return -1;
    const may = (i: number) => {
      const p = this.procs[i]!;
      return p <= free && (p <= spare || this.estimates[i]! <= estimate_s);
    };
    let i = from + this.capacity;
    // At a leaf the test is exact.
    if (may(i)) return from;
    for (;;) {
      // Up until there is a subtree to the right, then to it.
      while (i & 1) {
        i >>= 1;
        if (i <= 1) return -1;
      }
      i += 1;
      if (!may(i)) continue;
      // Down to its leftmost leaf that may start, or to a node below which none may.
      while (i < this.capacity) {
        if (may(2 * i)) i = 2 * i;
        else if (may(2 * i + 1)) i = 2 * i + 1;
        else break;
      }
      if (i >= this.capacity) return i - this.capacity;
    }
  }
}

/** Node `leaf`'s ancestors again, from it up, until one is unchanged. */
function update(tree: Float64Array, leaf: number): void {
  for (let i = leaf >> 1; i >= 1; i >>= 1) {
    const m = Math.min(tree[2 * i]!, tree[2 * i + 1]!);
    if (tree[i] === m) break;
    tree[i] = m;
  }
}
