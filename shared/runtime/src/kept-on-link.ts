/**
 * One link's durable messages waiting for their acknowledgement, in their numbers' order: a queue
 * taken from its front, as an acknowledgement is cumulative (DurableOutbox.acknowledged). Until
 * 2026-12-02 a Map in insertion order held them; a Map keeps a deleted entry's slot until its
 * table is rebuilt, so each acknowledgement walked again, from the front, past every message
 * acknowledged before it (docs/performance.md, "The outbox as a queue").
 */
export class KeptOnLink<T extends { readonly n: number }> {
  /** Oldest first; the slots before `head` are taken (cleared, so their messages can be collected). */
  private items: (T | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  /** The oldest kept, the lowest number. */
  get first(): T | undefined {
    return this.items[this.head];
  }

  /**
   * Keeps `item`. A link's messages are kept in their numbers' order (they are sent in it), so it
   * goes last; one that does not is put in its place, replacing one of the same number.
   */
  add(item: T): void {
    const last = this.items[this.items.length - 1];
    if (this.size === 0 || last!.n < item.n) {
      this.items.push(item);
      return;
    }
    const at = this.indexOf(item.n);
    if (this.items[at]?.n === item.n) this.items[at] = item;
    else this.items.splice(at, 0, item);
  }

  /** The one numbered `n`, if kept. */
  get(n: number): T | undefined {
    const first = this.items[this.head];
    if (first === undefined) return undefined;
    // Numbers are consecutive unless some were acknowledged before they were kept (a replay).
    const guess = this.items[this.head + n - first.n];
    if (guess?.n === n) return guess;
    const found = this.items[this.indexOf(n)];
    return found?.n === n ? found : undefined;
  }

  /** Takes out every one numbered up to `upto`, oldest first, calling `each` with it; returns how many. */
  takeThrough(upto: number, each: (item: T) => void): number {
    let taken = 0;
    for (let item = this.items[this.head]; item !== undefined && item.n <= upto; item = this.items[this.head]) {
      this.items[this.head++] = undefined;
      taken++;
      each(item);
    }
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && 2 * this.head >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return taken;
  }

  /** Calls `f` with each one kept, oldest first. */
  forEach(f: (item: T) => void): void {
    for (let i = this.head; i < this.items.length; i++) f(this.items[i]!);
  }

  /** Where number `n` is, or would go: the first slot from `head` whose number is not below it. */
  private indexOf(n: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.n < n) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
