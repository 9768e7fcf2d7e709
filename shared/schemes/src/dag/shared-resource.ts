/**
 * One computational resource of paper 003's grid (§4): MIPS_r of power shared by the tasks it runs.
 * Paper 003 §3 gives the speed a task gets as MIPS_r divided by the tasks the resource executes,
 * *initial* tasks not counted; the issue makes that the resource's model, and so do we. Initial
 * tasks have no inputs and are interrupted and moved when a dependent task needs their resource
 * (§3, step 1), so they run in the background: each task, initial or not, gets
 * MIPS_r / max(1, dependent tasks), and an initial task slows nobody down.
 *
 * Pure and deterministic: the owner tells it the time at every change, and asks when the next task
 * will finish at the current speeds to set its one timer.
 */
export interface ResourceTask {
  readonly id: string;
  /** An initial task of its DAG (no parents): not counted in the divisor. */
  readonly initial: boolean;
  /** Instructions still to run, in MI. */
  readonly remaining_mi: number;
}

/** Work under this many MI is done: float rounding of remaining = work − speed × elapsed. */
const DONE_MI = 1e-6;

export class SharedResource {
  private readonly tasks = new Map<string, { initial: boolean; remaining_mi: number }>();
  private dependents = 0;
  private at_s: number;

  constructor(
    readonly id: string,
    readonly mips: number,
    start_s = 0,
  ) {
    if (!(mips > 0)) throw new Error(`resource ${id}: MIPS must be positive (got ${mips})`);
    this.at_s = start_s;
  }

  /** MI per second each of its tasks gets now. */
  get speed(): number {
    return this.mips / Math.max(1, this.dependents);
  }

  /** The speed a task would get if it joined now (initial tasks join at the current speed). */
  speedIfJoined(initial: boolean): number {
    return this.mips / Math.max(1, this.dependents + (initial ? 0 : 1));
  }

  /** Tasks it runs that count in the divisor (every task but initial ones). */
  get dependentTasks(): number {
    return this.dependents;
  }

  get size(): number {
    return this.tasks.size;
  }

  has(id: string): boolean {
    return this.tasks.has(id);
  }

  /** Its tasks as of `now_s`, in the order they were started. */
  running(now_s: number): ResourceTask[] {
    this.advance(now_s);
    return [...this.tasks].map(([id, t]) => ({ id, ...t }));
  }

  /** Starts a task with `work_mi` to run (its whole length, or what a checkpoint left). */
  start(now_s: number, id: string, work_mi: number, initial: boolean): void {
    if (this.tasks.has(id)) throw new Error(`assertion: task ${id} started twice on resource ${this.id}`);
    if (!(work_mi >= 0)) throw new Error(`task ${id}: work must be a non-negative number of MI (got ${work_mi})`);
    this.advance(now_s);
    this.tasks.set(id, { initial, remaining_mi: work_mi });
    if (!initial) this.dependents++;
  }

  /** Stops a task (finished, interrupted or migrated) and returns the work it had left, in MI. */
  stop(now_s: number, id: string): number {
    this.advance(now_s);
    const t = this.tasks.get(id);
    if (!t) throw new Error(`assertion: task ${id} is not running on resource ${this.id}`);
    this.tasks.delete(id);
    if (!t.initial) this.dependents--;
    return Math.max(0, t.remaining_mi);
  }

  /** The tasks whose work is done at `now_s` (the owner then stops each), in start order. */
  finished(now_s: number): string[] {
    this.advance(now_s);
    const done: string[] = [];
    for (const [id, t] of this.tasks) if (t.remaining_mi <= DONE_MI) done.push(id);
    return done;
  }

  /** When the next task finishes if nothing changes; undefined when idle. */
  nextFinish_s(now_s: number): number | undefined {
    this.advance(now_s);
    let least = Number.POSITIVE_INFINITY;
    for (const t of this.tasks.values()) least = Math.min(least, t.remaining_mi);
    return this.tasks.size === 0 ? undefined : this.at_s + Math.max(0, least) / this.speed;
  }

  /** Brings every task's remaining work forward to `now_s` at the speed they shared since. */
  private advance(now_s: number): void {
    if (now_s < this.at_s) throw new Error(`assertion: resource ${this.id} asked about ${now_s} s after ${this.at_s} s`);
    const done_mi = (now_s - this.at_s) * this.speed;
    if (done_mi > 0) for (const t of this.tasks.values()) t.remaining_mi -= done_mi;
    this.at_s = now_s;
  }
}
