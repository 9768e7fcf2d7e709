import type { LocalPolicyName } from '@gridemu/model';
import { DualEasyPolicy } from './dual-easy.js';
import { EasyPolicy } from './easy.js';
import { FcfsPolicy } from './fcfs.js';
import type { LocalPolicy } from './policy.js';

export type { LocalPolicy, QueueKind } from './policy.js';
export type { Reservation } from './reservation.js';
export { FcfsPolicy, EasyPolicy, DualEasyPolicy };
export { Processors, type RunningJob } from './running-jobs.js';
export { JobQueue } from './job-queue.js';
export { headReservation, backfillCost } from './reservation.js';
export { AvailabilityProfile } from './availability-profile.js';

export function createLocalPolicy(name: LocalPolicyName, cpus: number): LocalPolicy {
  switch (name) {
    case 'fcfs':
      return new FcfsPolicy(cpus);
    case 'easy':
      return new EasyPolicy(cpus);
    case 'dual-easy':
      return new DualEasyPolicy(cpus);
  }
}
