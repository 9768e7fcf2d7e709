/** A job waiting for, or holding, CPUs at a site. */
export interface QueuedJob {
  readonly id: string;
  readonly vo: string;
  readonly procs: number;
  /** A grid job, which a misbehaving manager holds (§4.2.1); its own users' jobs it still starts. */
  readonly holdable?: boolean;
}

/** A waiting job and its place in the site's arrival order. */
interface Waiting {
  readonly job: QueuedJob;
  readonly seq: number;
}

/** The waiting jobs of one VO that are all holdable, or all not, in arrival order. */
interface Lane {
  readonly vo: string;
  readonly holdable: boolean;
  readonly list: Waiting[];
}

/** What one VO has waiting at a site. */
export interface VoQueued {
  readonly vo: string;
  readonly cpus: number;
  readonly jobs: number;
}

/**
 * A site's local resource manager queue under per-VO limits (§1.2.2 site policy, enforced by
 * the site): jobs start in arrival order when CPUs are free and their VO stays within its cap;
 * a job whose VO is at its cap waits without holding up other VOs' jobs behind it.
 *
 * The waiting jobs are kept in lanes, per VO and holdable or not, each in arrival order, so a pass
 * walks only the lanes that can start something: a VO at its cap, or a misbehaving manager's held
 * grid jobs, can be hundreds waiting at a busy site, and walking them on every pass was a sixth of
 * a paper 002 simulation's time.
 */
export class SiteQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly waitingById = new Map<string, Waiting>();
  private holdableWaiting = 0;
  private readonly queuedByVo = new Map<string, { cpus: number; jobs: number }>();
  private readonly running = new Map<string, QueuedJob>();
  private readonly runningByVo = new Map<string, number>();
  private free: number;
  /** The next arrival's place, and the place before the head (runs put back go first). */
  private nextSeq = 0;
  private headSeq = 0;

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

  /** Jobs waiting to start. */
  get waitingJobs(): number {
    return this.waitingById.size;
  }

  /** Jobs holding CPUs. */
  get runningJobs(): number {
    return this.running.size;
  }

  /** Per VO with jobs waiting, their CPUs and count, in the order of each VO's first waiting job. */
  queued(): VoQueued[] {
    const first = (vo: string) =>
      Math.min(...[false, true].map((h) => this.lanes.get(laneKey(vo, h))?.list[0]?.seq ?? Number.POSITIVE_INFINITY));
    return [...this.queuedByVo]
      .sort(([a], [b]) => first(a) - first(b))
      .map(([vo, q]) => ({ vo, cpus: q.cpus, jobs: q.jobs }));
  }

  /** Whether a holdable job is waiting. */
  get holdsSome(): boolean {
    return this.holdableWaiting > 0;
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
    this.enqueue({ job, seq: this.nextSeq++ }, false);
  }

  /** Puts jobs back at the head of the queue, in the order given (runs lost in a crash). */
  addFirst(jobs: readonly QueuedJob[]): void {
    for (let i = jobs.length - 1; i >= 0; i--) this.enqueue({ job: jobs[i]!, seq: --this.headSeq }, true);
  }

  /** Takes a waiting job back; false if it is not waiting (it started, or was never here). */
  withdraw(id: string): boolean {
    const w = this.waitingById.get(id);
    if (!w) return false;
    const list = this.lanes.get(laneKey(w.job.vo, w.job.holdable === true))!.list;
    list.splice(placeOf(list, w.seq), 1);
    this.dequeued(w.job);
    return true;
  }

  /**
   * The jobs that start now, in arrival order; they hold their CPUs until `finish`. While
   * `holding`, holdable jobs stay waiting without holding up those behind them.
   */
  startable(holding = false): QueuedJob[] {
    const starts: QueuedJob[] = [];
    // One cursor per lane whose VO has room for a CPU; the walk takes the earliest arrival among them.
    const room = new Map<string, number>();
    const cursors: { list: Waiting[]; at: number; vo: string }[] = [];
    for (const { vo, holdable, list } of this.lanes.values()) {
      if (list.length === 0 || (holding && holdable)) continue;
      let r = room.get(vo);
      if (r === undefined) room.set(vo, (r = this.cap(vo) - this.runningCpus(vo)));
      if (r > 0) cursors.push({ list, at: 0, vo });
    }
    while (this.free > 0 && cursors.length > 0) {
      let c = 0;
      for (let k = 1; k < cursors.length; k++)
        if (cursors[k]!.list[cursors[k]!.at]!.seq < cursors[c]!.list[cursors[c]!.at]!.seq) c = k;
      const cursor = cursors[c]!;
      const left = room.get(cursor.vo)!;
      const j = cursor.list[cursor.at]!.job;
      if (j.procs <= this.free && j.procs <= left) {
        cursor.list.splice(cursor.at, 1);
        this.dequeued(j);
        this.running.set(j.id, j);
        this.runningByVo.set(j.vo, this.runningCpus(j.vo) + j.procs);
        this.free -= j.procs;
        room.set(cursor.vo, left - j.procs);
        starts.push(j);
      } else {
        cursor.at++;
      }
      if (room.get(cursor.vo)! <= 0 || cursor.at >= cursor.list.length) cursors.splice(c, 1);
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

  private enqueue(w: Waiting, atHead: boolean): void {
    const holdable = w.job.holdable === true;
    const key = laneKey(w.job.vo, holdable);
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { vo: w.job.vo, holdable, list: [] }));
    if (atHead) lane.list.unshift(w);
    else lane.list.push(w);
    this.waitingById.set(w.job.id, w);
    if (holdable) this.holdableWaiting++;
    const q = this.queuedByVo.get(w.job.vo);
    if (q) {
      q.cpus += w.job.procs;
      q.jobs++;
    } else this.queuedByVo.set(w.job.vo, { cpus: w.job.procs, jobs: 1 });
  }

  private dequeued(job: QueuedJob): void {
    this.waitingById.delete(job.id);
    if (job.holdable === true) this.holdableWaiting--;
    const q = this.queuedByVo.get(job.vo)!;
    q.cpus -= job.procs;
    if (--q.jobs === 0) this.queuedByVo.delete(job.vo);
  }
}

function laneKey(vo: string, holdable: boolean): string {
  return holdable ? `${vo}\u0000holdable` : vo;
}

/** Where the entry of arrival place `seq` is in `list` (kept in arrival order). */
function placeOf(list: readonly Waiting[], seq: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
