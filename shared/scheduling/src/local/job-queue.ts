import type { SchedulableJob } from '@gridemu/model';

/** One waiting job, linked to its neighbours in queue order. */
interface Slot<J> {
  readonly job: J;
  prev: Slot<J> | undefined;
  next: Slot<J> | undefined;
}

/**
 * A FIFO of waiting jobs. Every operation a scheduling pass makes is O(1) per job it touches:
 * taking the head, starting a job from the middle (backfilling), withdrawing a job by id (a copy
 * cancelled elsewhere). At saturation a site's queue holds thousands of copies, and a pass runs
 * after every event: an array rebuilt for each withdrawal or backfill made the scheduler the
 * largest part of a live site's CPU with K = 4, a third of it (docs/performance.md).
 */
export class JobQueue<J extends SchedulableJob = SchedulableJob> {
  private first: Slot<J> | undefined;
  private last: Slot<J> | undefined;
  private count = 0;
  /** The slots of each job id (one, unless a job was queued twice). */
  private readonly byId = new Map<string, Slot<J> | Slot<J>[]>();
  /**
   * At most the fewest processors any queued job asks for: lowered by every job put in, made exact
   * by each sweep that visits the whole queue. Taking jobs out only raises the true minimum, so it
   * stays a lower bound: a pass with fewer processors free can start nothing and need not look.
   */
  private fewestProcs = Number.POSITIVE_INFINITY;

  get size(): number {
    return this.count;
  }

  /** No queued job asks for fewer processors than this (a bound, not always the minimum). */
  get fewestProcsBound(): number {
    return this.count === 0 ? Number.POSITIVE_INFINITY : this.fewestProcs;
  }

  push(job: J): void {
    const slot: Slot<J> = { job, prev: this.last, next: undefined };
    if (this.last) this.last.next = slot;
    else this.first = slot;
    this.last = slot;
    this.added(slot);
  }

  /** Puts a job at the head (a lost run waiting again in its old place). */
  unshift(job: J): void {
    const slot: Slot<J> = { job, prev: undefined, next: this.first };
    if (this.first) this.first.prev = slot;
    else this.last = slot;
    this.first = slot;
    this.added(slot);
  }

  peek(): J | undefined {
    return this.first?.job;
  }

  shift(): J | undefined {
    const slot = this.first;
    if (slot === undefined) return undefined;
    this.unlink(slot);
    return slot.job;
  }

  /** Takes out every queued job with this id; returns how many there were. */
  remove(id: string): number {
    const held = this.byId.get(id);
    if (held === undefined) return 0;
    const slots = Array.isArray(held) ? [...held] : [held];
    for (const s of slots) this.unlink(s);
    return slots.length;
  }

  /**
   * Visits the jobs after the first `skip`, in queue order, while `more()` holds before each; a
   * job `take` returns true for is taken out of the queue (started). Jobs taken count against later
   * ones through whatever `take` itself tracks.
   */
  sweep(skip: number, take: (job: J) => boolean, more: () => boolean): void {
    let slot = this.first;
    let fewest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < skip && slot !== undefined; i++, slot = slot.next) fewest = Math.min(fewest, slot.job.procs);
    for (; slot !== undefined;) {
      if (!more()) return;
      const next = slot.next;
      if (take(slot.job)) this.unlink(slot);
      else fewest = Math.min(fewest, slot.job.procs);
      slot = next;
    }
    // Every job left was seen: the bound is exact again.
    this.fewestProcs = fewest;
  }

  *[Symbol.iterator](): IterableIterator<J> {
    for (let slot = this.first; slot !== undefined; slot = slot.next) yield slot.job;
  }

  private added(slot: Slot<J>): void {
    this.count++;
    this.fewestProcs = Math.min(this.fewestProcs, slot.job.procs);
    const held = this.byId.get(slot.job.id);
    if (held === undefined) this.byId.set(slot.job.id, slot);
    else if (Array.isArray(held)) held.push(slot);
    else this.byId.set(slot.job.id, [held, slot]);
  }

  private unlink(slot: Slot<J>): void {
    if (slot.prev) slot.prev.next = slot.next;
    else this.first = slot.next;
    if (slot.next) slot.next.prev = slot.prev;
    else this.last = slot.prev;
    slot.prev = slot.next = undefined;
    this.count--;
    const id = slot.job.id;
    const held = this.byId.get(id);
    if (Array.isArray(held)) {
      held.splice(held.indexOf(slot), 1);
      if (held.length === 1) this.byId.set(id, held[0]!);
    } else this.byId.delete(id);
  }
}
