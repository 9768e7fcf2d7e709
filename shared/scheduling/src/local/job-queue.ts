import type { SchedulableJob } from '@gridemu/model';

/**
 * A FIFO of waiting jobs. Taking the head is O(1) (an offset, compacted now and then), so an FCFS
 * queue thousands of jobs long costs nothing per event; removing from the middle is O(n).
 */
export class JobQueue<J extends SchedulableJob = SchedulableJob> {
  private items: J[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(job: J): void {
    this.items.push(job);
  }

  /** Puts a job at the head (a lost run waiting again in its old place). */
  unshift(job: J): void {
    if (this.head > 0) this.items[--this.head] = job;
    else this.items.unshift(job);
  }

  peek(): J | undefined {
    return this.items[this.head];
  }

  at(i: number): J | undefined {
    return this.items[this.head + i];
  }

  shift(): J | undefined {
    const job = this.items[this.head];
    if (job === undefined) return undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return job;
  }

  /** Keeps the jobs for which `keep` is true, in order; returns how many were removed. */
  retain(keep: (job: J) => boolean): number {
    const kept: J[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const job = this.items[i]!;
      if (keep(job)) kept.push(job);
    }
    const removed = this.size - kept.length;
    this.items = kept;
    this.head = 0;
    return removed;
  }

  *[Symbol.iterator](): IterableIterator<J> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]!;
  }
}
