import type { SchedulableJob } from '@gridemu/model';
import { BasePolicy } from './base-policy.js';
import type { JobQueue } from './job-queue.js';
import { backfillCost, headReservation, type Reservation } from './reservation.js';

/**
 * FCFS with EASY backfilling (paper 001 §3; Lifka 1995). Each pass: start heads while they fit;
 * give the head a reservation from running jobs' requested times; then one pass over the rest of
 * the queue in order, starting every job that fits now and does not delay that reservation. Jobs
 * started earlier in the pass count against later ones. An early completion is just another event:
 * the next pass recomputes the reservation and fills the hole.
 */
export class EasyPolicy extends BasePolicy {
  readonly name: string = 'easy';

  protected pass(now: number): SchedulableJob[] {
    const started: SchedulableJob[] = [];
    this.headReservation = this.easyPass(now, this.localQueue, started);
    return started;
  }

  /**
   * One EASY pass over `queue`; returns the head's reservation (undefined if the queue emptied),
   * with the spare processors that this pass's backfilled jobs took already taken away, so a
   * later pass (dual-queue's remote jobs) cannot use them again.
   */
  protected easyPass(now: number, queue: JobQueue, started: SchedulableJob[]): Reservation | undefined {
    this.startHeads(now, queue, started);
    const head = queue.peek();
    if (head === undefined) return undefined;
    const res = headReservation(this.cpusInUse, head.id, head.procs, now);
    if (queue.size > 1 && this.cpusInUse.free > 0) return this.backfill(now, queue, 1, res, started);
    return res;
  }

  /**
   * Starts, in queue order from index `from`, every job that may run now without delaying `res`.
   * Returns `res` with the spare processors the started jobs used taken away.
   */
  protected backfill(
    now: number,
    queue: JobQueue,
    from: number,
    res: Reservation | undefined,
    started: SchedulableJob[],
  ): Reservation | undefined {
    let spare = res?.spare ?? 0;
    // No queued job is small enough for the free processors: the sweep would start nothing.
    if (this.cpusInUse.free < queue.fewestProcsBound) return res;
    queue.sweep(
      from,
      (job) => {
        const cost = backfillCost(res?.start_s, spare, this.cpusInUse.free, job.procs, job.estimate_s, now);
        if (cost < 0) return false;
        spare -= cost;
        this.start(now, job, started);
        return true;
      },
      () => this.cpusInUse.free > 0,
      res === undefined
        ? { procs: () => this.cpusInUse.free }
        : { procs: () => this.cpusInUse.free, spare: () => spare, estimate_s: endsByWindow_s(now, res.start_s) },
    );
    return res === undefined ? undefined : { ...res, spare };
  }
}

/**
 * An estimate no job ending by `start_s` exceeds: `start_s - now`, widened by a few units in the
 * last place, since backfillCost tests `now + estimate <= start_s` and the two roundings may
 * differ. The sweep passes over only jobs longer than this; backfillCost still decides each it visits.
 */
function endsByWindow_s(now: number, start_s: number): number {
  return start_s - now + 4 * Number.EPSILON * Math.max(1, Math.abs(now), Math.abs(start_s));
}
