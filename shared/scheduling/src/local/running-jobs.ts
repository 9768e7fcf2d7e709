/** A running job as the scheduler plans with it: it holds `procs` until `end_s` (start + estimate). */
export interface RunningJob {
  readonly id: string;
  readonly procs: number;
  readonly end_s: number;
}

/**
 * The site's processors: how many are free, and the running jobs ordered by estimated end, which
 * is the availability profile EASY needs (the free count only grows, at each estimated end).
 * Insertion is a binary search plus an array splice: cheap for the few hundred jobs a site runs.
 */
export class Processors {
  private readonly byEnd: RunningJob[] = [];
  private readonly byId = new Map<string, RunningJob>();
  private freeCount: number;

  constructor(readonly total: number) {
    this.freeCount = total;
  }

  get free(): number {
    return this.freeCount;
  }

  get runningCount(): number {
    return this.byEnd.length;
  }

  /** Running jobs in order of estimated end (ties: in start order). */
  running(): readonly RunningJob[] {
    return this.byEnd;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  allocate(job: RunningJob): void {
    if (job.procs > this.freeCount) {
      throw new Error(
        `assertion: ${job.id} needs ${job.procs} processors but only ${this.freeCount} of ${this.total} are free`,
      );
    }
    if (this.byId.has(job.id)) throw new Error(`assertion: ${job.id} started twice`);
    let lo = 0;
    let hi = this.byEnd.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.byEnd[mid]!.end_s <= job.end_s) lo = mid + 1;
      else hi = mid;
    }
    this.byEnd.splice(lo, 0, job);
    this.byId.set(job.id, job);
    this.freeCount -= job.procs;
  }

  release(id: string): RunningJob {
    const job = this.byId.get(id);
    if (!job) throw new Error(`assertion: ${id} finished but is not running here`);
    this.byId.delete(id);
    let i = this.lowerBound(job.end_s);
    while (this.byEnd[i] !== job) i++;
    this.byEnd.splice(i, 1);
    this.freeCount += job.procs;
    return job;
  }

  private lowerBound(end_s: number): number {
    let lo = 0;
    let hi = this.byEnd.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.byEnd[mid]!.end_s < end_s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
