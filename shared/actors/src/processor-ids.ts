/**
 * Which processor ids of a site are free, as sorted disjoint [from, to] intervals. A job takes the
 * lowest free ids; its ids are written to jobs.csv in Batsim's interval-set notation ("0-3 8").
 */
export class ProcessorIds {
  private free: [number, number][];

  constructor(total: number) {
    this.free = total > 0 ? [[0, total - 1]] : [];
  }

  take(n: number): [number, number][] {
    const taken: [number, number][] = [];
    let need = n;
    let used = 0;
    while (need > 0) {
      const first = this.free[used];
      if (!first) throw new Error(`assertion: no free processor ids left for ${n} processors`);
      const size = first[1] - first[0] + 1;
      if (size <= need) {
        taken.push([first[0], first[1]]);
        used++;
        need -= size;
      } else {
        taken.push([first[0], first[0] + need - 1]);
        first[0] += need;
        need = 0;
      }
    }
    if (used > 0) this.free.splice(0, used);
    return taken;
  }

  /** Gives intervals back, merging each with its neighbours: a binary search per interval, no sort. */
  give(intervals: readonly [number, number][]): void {
    for (const [a, b] of intervals) {
      const free = this.free;
      // The first free interval that starts after `a`.
      let lo = 0;
      let hi = free.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (free[mid]![0] > a) hi = mid;
        else lo = mid + 1;
      }
      const before = free[lo - 1];
      const after = free[lo];
      if ((before && before[1] >= a) || (after && after[0] <= b))
        throw new Error(`assertion: processor ${before && before[1] >= a ? a : after![0]} freed twice`);
      const joinsBefore = before !== undefined && before[1] + 1 === a;
      const joinsAfter = after !== undefined && after[0] === b + 1;
      if (joinsBefore && joinsAfter) {
        before[1] = after[1];
        free.splice(lo, 1);
      } else if (joinsBefore) before[1] = b;
      else if (joinsAfter) after[0] = a;
      else free.splice(lo, 0, [a, b]);
    }
  }
}

export function intervalSet(intervals: readonly [number, number][]): string {
  return intervals.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(' ');
}
