import type { RunningJob } from './running-jobs.js';

/**
 * Free processors over future time, as a step function, for answering "when could this job
 * start?" without changing anything: built from running jobs' estimated ends, then each queued
 * job is placed at its earliest fit in queue order (a conservative-backfilling view of the queue).
 */
export class AvailabilityProfile {
  /** free[i] processors are free over [times[i], times[i+1]); the last step lasts for ever. */
  private readonly times: number[];
  private readonly free: number[];

  constructor(now: number, freeNow: number, running: readonly RunningJob[]) {
    this.times = [now];
    this.free = [freeNow];
    for (const r of running) {
      const t = Math.max(now, r.end_s);
      const last = this.times.length - 1;
      if (t === this.times[last]) this.free[last]! += r.procs;
      else {
        this.times.push(t);
        this.free.push(this.free[last]! + r.procs);
      }
    }
  }

  /** The earliest time `procs` processors are free for `duration_s` in a row. */
  earliestStart(procs: number, duration_s: number): number {
    for (let i = 0; i < this.times.length; i++) {
      if (this.free[i]! < procs) continue;
      const start = this.times[i]!;
      let ok = true;
      for (let j = i + 1; j < this.times.length && this.times[j]! < start + duration_s; j++) {
        if (this.free[j]! < procs) {
          ok = false;
          break;
        }
      }
      if (ok) return start;
    }
    throw new Error(`assertion: ${procs} processors are never free in this profile`);
  }

  /** Takes `procs` processors over [start, start + duration). */
  reserve(start: number, procs: number, duration_s: number): void {
    const end = start + duration_s;
    this.split(start);
    this.split(end);
    for (let i = 0; i < this.times.length && this.times[i]! < end; i++) {
      if (this.times[i]! >= start) this.free[i]! -= procs;
    }
  }

  private split(t: number): void {
    let i = this.times.length - 1;
    while (i > 0 && this.times[i]! > t) i--;
    if (this.times[i] === t || this.times[i]! > t) return;
    this.times.splice(i + 1, 0, t);
    this.free.splice(i + 1, 0, this.free[i]!);
  }
}
