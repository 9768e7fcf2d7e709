import type { MessageShapes } from '@gridemu/protocol';

/** Hierarchical metascheduler timer: a query round has waited long enough. */
export interface QueryTimeout {
  readonly type: 'timer.query-timeout';
  readonly queryId: number;
}

declare module '@gridemu/protocol' {
  interface MessageCatalogue {
    'timer.query-timeout': QueryTimeout;
  }
}

/** The messages paper 001's actors add to the core catalogue (the site protocol: copies, claims, load, start queries, is core). */
export const PAPER_001_MESSAGES: MessageShapes = {
  'timer.query-timeout': { queryId: 'count' },
};
