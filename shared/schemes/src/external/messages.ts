import type { Job } from '@gridemu/model';
import type { MessageShapes } from '@gridemu/protocol';

/** Site → site's metascheduler: another site's policy offers this job; this site's policy decides it. */
export interface ExternalOffer {
  readonly type: 'external.offer';
  readonly job: Job;
  /** The site whose policy offered it. */
  readonly from: string;
}
/** Metascheduler timer: a timer the policy set has fired. */
export interface ExternalTimer {
  readonly type: 'timer.external';
  readonly name: string;
}

declare module '@gridemu/protocol' {
  interface MessageCatalogue {
    'external.offer': ExternalOffer;
    'timer.external': ExternalTimer;
  }
}

export const EXTERNAL_MESSAGES: MessageShapes = {
  'external.offer': { job: 'job', from: 'string' },
  'timer.external': { name: 'string' },
};

/** An offer must reach its site, as a job sent to a scheduler must. */
export const EXTERNAL_DURABLE: readonly string[] = ['external.offer'];
