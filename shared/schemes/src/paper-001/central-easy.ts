import type { SchedulableJob } from '@gridemu/model';
import { backfillCost, headReservation, JobQueue, Processors, type Reservation } from '@gridemu/scheduling';

export interface Placement {
  readonly jobId: string;
  readonly site: string;
}

/**
 * The centralized scheme (paper 001 §2.1.1): one queue for the whole grid and the surface of
 * every site; sites only run what they are sent. EASY across sites: heads start wherever they fit
 * now (the fullest site that fits, to keep large holes open); a head that fits nowhere is
 * reserved at the site where it can start earliest; the rest of the queue backfills into any
 * site, without delaying that reservation at its site. A job must fit in one site.
 */
export class CentralEasy {
  private readonly queue = new JobQueue();
  private readonly sites: { readonly id: string; readonly cpus: Processors }[];
  private readonly placedAt = new Map<string, string>();
  private reservation: (Reservation & { readonly site: string }) | undefined;

  constructor(sites: readonly { readonly id: string; readonly cpus: number }[]) {
    this.sites = sites.map((s) => ({ id: s.id, cpus: new Processors(s.cpus) }));
  }

  /** Whether some site is wide enough for the job at all. */
  fits(job: SchedulableJob): boolean {
    return this.sites.some((s) => s.cpus.total >= job.procs);
  }

  get queued(): number {
    return this.queue.size;
  }

  submit(now: number, job: SchedulableJob): Placement[] {
    if (!this.fits(job)) throw new Error(`assertion: ${job.id} fits no site`);
    this.queue.push(job);
    return this.pass(now);
  }

  finish(now: number, jobId: string): Placement[] {
    const site = this.placedAt.get(jobId);
    if (site === undefined) throw new Error(`assertion: ${jobId} finished but was never placed`);
    this.placedAt.delete(jobId);
    this.sites.find((s) => s.id === site)!.cpus.release(jobId);
    return this.pass(now);
  }

  /**
   * A placed job's run was lost with its site's process: its processors there are free,
   * and it waits again at the head of the queue.
   */
  requeue(now: number, job: SchedulableJob): Placement[] {
    const site = this.placedAt.get(job.id);
    if (site === undefined) throw new Error(`assertion: ${job.id} lost but was never placed`);
    this.placedAt.delete(job.id);
    this.sites.find((s) => s.id === site)!.cpus.release(job.id);
    this.queue.unshift(job);
    return this.pass(now);
  }

  /** The head's reservation, if it has one (for tests). */
  headReservation(): (Reservation & { readonly site: string }) | undefined {
    return this.reservation;
  }

  private pass(now: number): Placement[] {
    const placed: Placement[] = [];
    for (let head = this.queue.peek(); head !== undefined; head = this.queue.peek()) {
      const site = this.fullestFitting(head.procs);
      if (site === undefined) break;
      this.queue.shift();
      this.place(now, head, site, placed);
    }
    const head = this.queue.peek();
    this.reservation = undefined;
    if (head === undefined) return placed;
    for (const s of this.sites) {
      if (s.cpus.total < head.procs) continue;
      const r = headReservation(s.cpus, head.id, head.procs, now);
      if (this.reservation === undefined || r.start_s < this.reservation.start_s)
        this.reservation = { ...r, site: s.id };
    }
    const reserved = this.reservation!;
    let spare = reserved.spare;
    this.queue.sweep(
      1,
      (job) => {
        for (const s of this.bestFitOrder(job.procs)) {
          const atReserved = s.id === reserved.site;
          const cost = atReserved
            ? backfillCost(reserved.start_s, spare, s.cpus.free, job.procs, job.estimate_s, now)
            : 0;
          if (cost < 0) continue;
          spare -= cost;
          this.place(now, job, s.id, placed);
          return true;
        }
        return false;
      },
      () => true,
    );
    return placed;
  }

  private place(now: number, job: SchedulableJob, site: string, placed: Placement[]): void {
    this.sites.find((s) => s.id === site)!.cpus.allocate({ id: job.id, procs: job.procs, end_s: now + job.estimate_s });
    this.placedAt.set(job.id, site);
    placed.push({ jobId: job.id, site });
  }

  /** Sites where `procs` fit now, fullest first (ties: grid order). */
  private bestFitOrder(procs: number) {
    return this.sites.filter((s) => s.cpus.free >= procs).sort((a, b) => a.cpus.free - b.cpus.free);
  }

  private fullestFitting(procs: number): string | undefined {
    return this.bestFitOrder(procs)[0]?.id;
  }
}
