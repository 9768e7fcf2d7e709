import type { SchedulableJob } from '@gridemu/model';
import { EasyPolicy } from './easy.js';

/**
 * Dual-queue EASY (paper 001 §4.2, Figure 7). Local jobs have their own queue scheduled by EASY,
 * and only the local head holds a reservation ("start time guarantees ... only to jobs from the
 * local queue"). Remote jobs are then considered in arrival order and start only if they fit now
 * without violating that reservation; local jobs backfill first ("local jobs are given priority").
 */
export class DualEasyPolicy extends EasyPolicy {
  override readonly name = 'dual-easy';
  protected override readonly hasRemoteQueue = true;

  protected override pass(now: number): SchedulableJob[] {
    const started: SchedulableJob[] = [];
    // The remote pass gets only the spare processors local backfilling left.
    const res = this.easyPass(now, this.localQueue, started);
    this.headReservation = res;
    if (this.remoteQueue.size > 0 && this.cpusInUse.free > 0) this.backfill(now, this.remoteQueue, 0, res, started);
    return started;
  }
}
