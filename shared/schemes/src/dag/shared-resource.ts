/**
 * One computational resource of paper 003's grid (§4): MIPS_r of power shared by the tasks it runs.
 * Paper 003 §3 gives the speed a task gets as MIPS_r divided by the tasks the resource executes,
 * *initial* tasks not counted; the issue makes that the resource's model, and so do we. Initial
 * tasks are the ones §3 (step 1) interrupts when a dependent task needs their resource, so a
 * dependent task preempts them:
 * - a dependent task gets MIPS_r / (dependent tasks), whatever initial tasks the resource holds;
 * - initial tasks share MIPS_r among themselves while no dependent task runs there, and stand
 *   still (interrupted, keeping their work) while one does. Moving them to a free resource is the
 *   scheduler's business (interrupt-initial.ts); the static scheduler never does, so its initial
 *   tasks wait for the resource to clear.
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
  private initials = 0;
  /** The time its tasks' work was last brought forward to; unset until first asked (a live run's clock may start before 0). */
  private at_s: number | undefined;
  /** Seconds it ran some task's work since takeBusy_s last asked. */
  private busy_s = 0;

  constructor(
    readonly id: string,
    readonly mips: number,
    start_s?: number,
  ) {
    if (!(mips > 0)) throw new Error(`resource ${id}: MIPS must be positive (got ${mips})`);
    this.at_s = start_s;
  }

  /** MI per second each of its dependent tasks gets now (MIPS_r when it runs none). */
  get speed(): number {
    return this.mips / Math.max(1, this.dependents);
  }

  /** MI per second each of its initial tasks gets now: 0 while a dependent task runs here. */
  get initialSpeed(): number {
    return this.dependents > 0 ? 0 : this.mips / Math.max(1, this.initials);
  }

  /** The speed a task would get if it joined now. */
  speedIfJoined(initial: boolean): number {
    if (!initial) return this.mips / (this.dependents + 1);
    return this.dependents > 0 ? 0 : this.mips / (this.initials + 1);
  }

  /** Tasks it runs that count in the divisor (every task but initial ones). */
  get dependentTasks(): number {
    return this.dependents;
  }

  /** Initial tasks it holds, running or interrupted. */
  get initialTasks(): number {
    return this.initials;
  }

  get size(): number {
    return this.tasks.size;
  }

  /** The time its work was last brought forward to (undefined until first asked). */
  get time_s(): number | undefined {
    return this.at_s;
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
    if (initial) this.initials++;
    else this.dependents++;
  }

  /** Stops a task (finished, interrupted or migrated) and returns the work it had left, in MI. */
  stop(now_s: number, id: string): number {
    this.advance(now_s);
    const t = this.tasks.get(id);
    if (!t) throw new Error(`assertion: task ${id} is not running on resource ${this.id}`);
    this.tasks.delete(id);
    if (t.initial) this.initials--;
    else this.dependents--;
    return Math.max(0, t.remaining_mi);
  }

  /** The tasks whose work is done at `now_s` (the owner then stops each), in start order. */
  finished(now_s: number): string[] {
    this.advance(now_s);
    const done: string[] = [];
    for (const [id, t] of this.tasks) if (t.remaining_mi <= DONE_MI) done.push(id);
    return done;
  }

  /** When the next task finishes if nothing changes; undefined when none is making progress. */
  nextFinish_s(now_s: number): number | undefined {
    this.advance(now_s);
    let first = Number.POSITIVE_INFINITY;
    for (const t of this.tasks.values()) {
      const speed = t.initial ? this.initialSpeed : this.speed;
      if (speed > 0) first = Math.min(first, Math.max(0, t.remaining_mi) / speed);
    }
    return Number.isFinite(first) ? now_s + first : undefined;
  }

  /**
   * The seconds it ran some task's work, up to the last time it was asked about, since this was
   * last called: its processor's busy time, for the run's utilization (shares of one processor add
   * up to it once; a finished task not yet stopped does not keep it busy).
   */
  takeBusy_s(): number {
    const busy = this.busy_s;
    this.busy_s = 0;
    return busy;
  }

  /** Brings every task's remaining work forward to `now_s` at the speed it had since. */
  private advance(now_s: number): void {
    if (this.at_s !== undefined && now_s < this.at_s)
      throw new Error(`assertion: resource ${this.id} asked about ${now_s} s after ${this.at_s} s`);
    const elapsed = this.at_s === undefined ? 0 : now_s - this.at_s;
    if (elapsed > 0) {
      const dependent = this.speed;
      const initial = this.initialSpeed;
      let workFor_s = 0;
      for (const t of this.tasks.values()) {
        const speed = t.initial ? initial : dependent;
        if (speed > 0) workFor_s = Math.max(workFor_s, Math.max(0, t.remaining_mi) / speed);
        t.remaining_mi -= elapsed * speed;
      }
      this.busy_s += Math.min(elapsed, workFor_s);
    }
    this.at_s = now_s;
  }
}
