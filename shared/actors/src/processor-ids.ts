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
    while (need > 0) {
      const first = this.free[0];
      if (!first) throw new Error(`assertion: no free processor ids left for ${n} processors`);
      const size = first[1] - first[0] + 1;
      if (size <= need) {
        taken.push(first);
        this.free.shift();
        need -= size;
      } else {
        taken.push([first[0], first[0] + need - 1]);
        first[0] += need;
        need = 0;
      }
    }
    return taken;
  }

  give(intervals: readonly [number, number][]): void {
    const merged = [...this.free, ...intervals.map(([a, b]) => [a, b] as [number, number])].sort((x, y) => x[0] - y[0]);
    const out: [number, number][] = [];
    for (const iv of merged) {
      const last = out[out.length - 1];
      if (last && iv[0] <= last[1] + 1) {
        if (iv[0] <= last[1]) throw new Error(`assertion: processor ${iv[0]} freed twice`);
        last[1] = Math.max(last[1], iv[1]);
      } else out.push([iv[0], iv[1]]);
    }
    this.free = out;
  }
}

export function intervalSet(intervals: readonly [number, number][]): string {
  return intervals.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(' ');
}
