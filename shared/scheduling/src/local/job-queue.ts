import type { SchedulableJob } from '@gridemu/model';
import { ProcsIndex } from './procs-index.js';

/** Positions the processors index starts with: a quarter for jobs put at the head, the rest for the tail. */
const INITIAL_CAPACITY = 1024;

/**
 * What a sweep may pass over unseen, as its `take` would refuse it (each read again before every
 * step): a job asking for more than `procs()` processors; and, with `spare`, one asking for more
 * than `spare()` whose estimate is over `estimate_s` (EASY's backfill: such a job would hold
 * processors the head's reservation needs past its start).
 */
export interface SweepLimits {
  procs(): number;
  spare?(): number;
  readonly estimate_s?: number;
}

/** One waiting job, linked to its neighbours in queue order. */
interface Slot<J> {
  readonly job: J;
  /** Its position in the processors index: increasing in queue order. */
  pos: number;
  prev: Slot<J> | undefined;
  next: Slot<J> | undefined;
  /** Its processors × requested seconds, as added to JobQueue's wholeWork; undefined: counted in `inexact`. */
  readonly keptWork: number | undefined;
}

/**
 * A FIFO of waiting jobs. Every operation a scheduling pass makes is O(1) per job it touches, or
 * O(log n) where the processors index is kept: taking the head, starting a job from the middle
 * (backfilling), withdrawing a job by id (a copy cancelled elsewhere), and going from one job
 * that may start to the next (ProcsIndex). At saturation a site's queue holds
 * thousands of copies, and a pass runs after every event: an array rebuilt for each withdrawal or
 * backfill made the scheduler a third of a live site's CPU with K = 4, and a sweep that looked at
 * every queued job still 13 to 16% (docs/performance.md).
 */
export class JobQueue<J extends SchedulableJob = SchedulableJob> {
  private first: Slot<J> | undefined;
  private last: Slot<J> | undefined;
  private count = 0;
  /** The slots of each job id (one, unless a job was queued twice). */
  private readonly byId = new Map<string, Slot<J> | Slot<J>[]>();
  /** The fewest processors asked for, by position, and the slot at each position. */
  private index = new ProcsIndex(INITIAL_CAPACITY);
  private atPos = new Array<Slot<J> | undefined>(INITIAL_CAPACITY);
  /** The next positions free at the head (unshift) and at the tail (push). */
  private headPos = INITIAL_CAPACITY / 4 - 1;
  private tailPos = INITIAL_CAPACITY / 4;
  /**
   * Processors × requested seconds summed over the queued jobs whose product is a whole number,
   * kept as jobs come and go: whole numbers under 2^53 add and subtract exactly, in any order.
   */
  private wholeWork = 0;
  /** Queued jobs whose work is not in wholeWork (not a whole number, or past 2^53): addWork then loops. */
  private inexact = 0;

  get size(): number {
    return this.count;
  }

  /** No queued job asks for fewer processors than this: the fewest any asks for. */
  get fewestProcsBound(): number {
    return this.count === 0 ? Number.POSITIVE_INFINITY : this.index.min;
  }

  push(job: J): void {
    if (this.tailPos >= this.index.capacity) this.reindex();
    const slot: Slot<J> = {
      job,
      pos: this.tailPos++,
      prev: this.last,
      next: undefined,
      keptWork: this.keptWorkOf(job),
    };
    if (this.last) this.last.next = slot;
    else this.first = slot;
    this.last = slot;
    this.added(slot);
  }

  /** Puts a job at the head (a lost run waiting again in its old place). */
  unshift(job: J): void {
    if (this.headPos < 0) this.reindex();
    const slot: Slot<J> = {
      job,
      pos: this.headPos--,
      prev: undefined,
      next: this.first,
      keptWork: this.keptWorkOf(job),
    };
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
   * ones through whatever `take` itself tracks. With `limits`, a job they rule out is passed over
   * unseen, as `take` would refuse it: at saturation most of a long queue asks for more than is
   * free, or would delay the head, and a pass runs after every event.
   */
  sweep(skip: number, take: (job: J) => boolean, more: () => boolean, limits?: SweepLimits): void {
    let slot = this.first;
    for (let i = 0; i < skip && slot !== undefined; i++) slot = slot.next;
    if (slot === undefined) return;
    if (limits === undefined) {
      for (; slot !== undefined;) {
        if (!more()) return;
        const next: Slot<J> | undefined = slot.next;
        if (take(slot.job)) this.unlink(slot);
        slot = next;
      }
      return;
    }
    const estimate_s = limits.estimate_s ?? Number.POSITIVE_INFINITY;
    const nextFrom = (pos: number) =>
      this.index.next(pos, limits.procs(), limits.spare?.() ?? Number.POSITIVE_INFINITY, estimate_s);
    for (let pos = nextFrom(slot.pos); pos >= 0;) {
      if (!more()) return;
      const at = this.atPos[pos]!;
      if (take(at.job)) this.unlink(at);
      pos = nextFrom(pos + 1);
    }
  }

  /**
   * `from` plus processors × requested seconds of every queued job. A load report asks for it on
   * every period, and at saturation a site's queue holds thousands of jobs: a walk over them all
   * each time made a site that fell behind fall further, its reports costing more as its queue grew
   * (docs/performance.md, "A load report's cost"). Where every job's work is a whole number (trace
   * and synthetic jobs' are) the queue's total is kept as they come and go, and the answer is
   * `from` plus it, rounded once; otherwise each job's work is added to `from` in queue order.
   */
  addWork(from: number): number {
    if (this.inexact === 0) return from + this.wholeWork;
    let work = from;
    for (let slot = this.first; slot !== undefined; slot = slot.next) work += slot.job.procs * slot.job.estimate_s;
    return work;
  }

  *[Symbol.iterator](): IterableIterator<J> {
    for (let slot = this.first; slot !== undefined; slot = slot.next) yield slot.job;
  }

  /** A job's work if it joins wholeWork (a whole number that keeps the total exact), else undefined. */
  private keptWorkOf(job: J): number | undefined {
    const work = job.procs * job.estimate_s;
    return Number.isInteger(work) && this.wholeWork + work <= Number.MAX_SAFE_INTEGER ? work : undefined;
  }

  private added(slot: Slot<J>): void {
    this.count++;
    if (slot.keptWork !== undefined) this.wholeWork += slot.keptWork;
    else this.inexact++;
    this.index.set(slot.pos, slot.job.procs, slot.job.estimate_s);
    this.atPos[slot.pos] = slot;
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
    if (slot.keptWork !== undefined) this.wholeWork -= slot.keptWork;
    else this.inexact--;
    this.index.clear(slot.pos);
    this.atPos[slot.pos] = undefined;
    const id = slot.job.id;
    const held = this.byId.get(id);
    if (Array.isArray(held)) {
      held.splice(held.indexOf(slot), 1);
      if (held.length === 1) this.byId.set(id, held[0]!);
    } else this.byId.delete(id);
  }

  /**
   * Gives every queued job a position again, in queue order, in an index with room for four times
   * as many from a quarter of the way in: the tail's positions run out after as many pushes as
   * there were jobs, so this is amortized O(1) a push.
   */
  private reindex(): void {
    let capacity = INITIAL_CAPACITY;
    while (capacity < 4 * (this.count + 1)) capacity *= 2;
    this.index = new ProcsIndex(capacity);
    this.atPos = new Array<Slot<J> | undefined>(capacity);
    let pos = capacity / 4;
    for (let slot = this.first; slot !== undefined; slot = slot.next) {
      slot.pos = pos++;
      this.index.set(slot.pos, slot.job.procs, slot.job.estimate_s);
      this.atPos[slot.pos] = slot;
    }
    this.headPos = capacity / 4 - 1;
    this.tailPos = pos;
  }
}
