/**
 * A divisible task run master-worker (paper 000, §2, §4.2): its work is split into jobs that
 * run independently on up to N CPUs; the master collects their results. A checkpoint of the
 * master keeps the finished jobs' results, so a task that migrates to another queue resumes
 * with only the unfinished jobs, and jobs that were running when it left run again. Pure.
 */
export type JobState = 'pending' | 'running' | 'done';

export class DivisibleTask {
  private readonly states: JobState[];
  private doneCount = 0;
  private runningCount = 0;

  constructor(
    readonly id: string,
    /** Reference CPU-seconds of the whole task. */
    readonly work_s: number,
    /** How many jobs it is split into. */
    readonly jobs: number,
  ) {
    if (!(jobs >= 1 && Number.isInteger(jobs)))
      throw new Error(`assertion: task ${id} needs a whole number of jobs (got ${jobs})`);
    this.states = new Array<JobState>(jobs).fill('pending');
  }

  /** Reference CPU-seconds of one job. */
  get jobWork_s(): number {
    return this.work_s / this.jobs;
  }

  get pending(): number {
    return this.jobs - this.doneCount - this.runningCount;
  }

  get running(): number {
    return this.runningCount;
  }

  get done(): number {
    return this.doneCount;
  }

  get finished(): boolean {
    return this.doneCount === this.jobs;
  }

  /** Work not yet finished (pending and running jobs), the C EnforceQueueLimits weighs. */
  get remainingWork_s(): number {
    return (this.jobs - this.doneCount) * this.jobWork_s;
  }

  /** Starts the next pending job; its index, or undefined if none is pending. */
  startJob(): number | undefined {
    const i = this.states.indexOf('pending');
    if (i < 0) return undefined;
    this.states[i] = 'running';
    this.runningCount++;
    return i;
  }

  /** A running job returned its result. */
  finishJob(i: number): void {
    this.expectRunning(i);
    this.states[i] = 'done';
    this.runningCount--;
    this.doneCount++;
  }

  /** A running job was evicted from its CPU: it must run again. */
  evictJob(i: number): void {
    this.expectRunning(i);
    this.states[i] = 'pending';
    this.runningCount--;
  }

  /**
   * The task leaves its queue (migration): the master's checkpoint keeps every finished job;
   * running jobs are abandoned and pending again. Returns how many were abandoned.
   */
  checkpointForMigration(): number {
    const abandoned = this.runningCount;
    for (let i = 0; i < this.jobs; i++) if (this.states[i] === 'running') this.states[i] = 'pending';
    this.runningCount = 0;
    return abandoned;
  }

  private expectRunning(i: number): void {
    if (this.states[i] !== 'running')
      throw new Error(`assertion: job ${i} of task ${this.id} is ${this.states[i] ?? 'unknown'}, not running`);
  }
}
