import type { SchedulableJob } from '@gridemu/model';
import { BasePolicy } from './base-policy.js';
import { headReservation } from './reservation.js';

/** First come, first served: only the queue head may start; nothing overtakes it. */
export class FcfsPolicy extends BasePolicy {
  readonly name = 'fcfs';

  protected pass(now: number): SchedulableJob[] {
    const started: SchedulableJob[] = [];
    this.startHeads(now, this.localQueue, started);
    const head = this.localQueue.peek();
    this.headReservation = head ? headReservation(this.cpusInUse, head.id, head.procs, now) : undefined;
    return started;
  }
}
