/** A job waiting for, or holding, CPUs at a site. */
export interface QueuedJob {
  readonly id: string;
  readonly vo: string;
  readonly procs: number;
}

/**
 * A site's local resource manager queue under per-VO limits (§1.2.2 site policy, enforced by
 * the site): jobs start in arrival order when CPUs are free and their VO stays within its cap;
 * a job whose VO is at its cap waits without holding up other VOs' jobs behind it.
 */
export class SiteQueue {
  private readonly waiting: QueuedJob[] = [];
  private readonly running = new Map<string, QueuedJob>();
  private readonly runningByVo = new Map<string, number>();
  private free: number;

  constructor(
    readonly cpus: number,
    /** Per VO, the CPUs it may hold at once (its burst limit); a VO not listed may hold none. */
    private readonly caps: ReadonlyMap<string, number>,
  ) {
    this.free = cpus;
  }

  get freeCpus(): number {
    return this.free;
  }

  get queued(): readonly QueuedJob[] {
    return this.waiting;
  }

  runningCpus(vo: string): number {
    return this.runningByVo.get(vo) ?? 0;
  }

  cap(vo: string): number {
    return this.caps.get(vo) ?? 0;
  }

  /** Whether the job could ever start here (its VO's cap and the site are wide enough). */
  fits(job: QueuedJob): boolean {
    return job.procs <= this.cpus && job.procs <= this.cap(job.vo);
  }

  add(job: QueuedJob): void {
    this.waiting.push(job);
  }

  /** Puts jobs back at the head of the queue, in the order given (runs lost in a crash). */
  addFirst(jobs: readonly QueuedJob[]): void {
    this.waiting.unshift(...jobs);
  }

  /** Takes a waiting job back; false if it is not waiting (it started, or was never here). */
  withdraw(id: string): boolean {
    const i = this.waiting.findIndex((j) => j.id === id);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  /**
   * The jobs that start now, in arrival order; they hold their CPUs until `finish`. Jobs `held`
   * says to keep stay waiting without holding up those behind them.
   */
  startable(held?: (id: string) => boolean): QueuedJob[] {
    const starts: QueuedJob[] = [];
    for (let i = 0; i < this.waiting.length && this.free > 0;) {
      const j = this.waiting[i]!;
      if (j.procs <= this.free && this.runningCpus(j.vo) + j.procs <= this.cap(j.vo) && !held?.(j.id)) {
        this.waiting.splice(i, 1);
        this.running.set(j.id, j);
        this.runningByVo.set(j.vo, this.runningCpus(j.vo) + j.procs);
        this.free -= j.procs;
        starts.push(j);
      } else {
        i++;
      }
    }
    return starts;
  }

  /** A running job gave its CPUs back. */
  finish(id: string): void {
    const j = this.running.get(id);
    if (!j) throw new Error(`assertion: ${id} finished but was not running`);
    this.running.delete(id);
    this.runningByVo.set(j.vo, this.runningCpus(j.vo) - j.procs);
    this.free += j.procs;
  }
}
