import type { Message } from '@gridemu/protocol';
import type { ActorContext } from '@gridemu/runtime';

/**
 * A site's state now, as every family's site actor reports it after each message: what a live
 * process's /metrics shows as `gridemu_jobs_queued`, `gridemu_jobs_running`,
 * `gridemu_processors_busy` and `gridemu_processors_total`, the Grafana dashboard's utilization and
 * queue panels (a simulation keeps no gauges).
 */
export interface SiteState {
  /** Jobs (or tasks) here that have not started. */
  readonly queued: number;
  readonly running: number;
  /** Processors running something, of `total`, the site's in all (its `cpus`). */
  readonly busy: number;
  readonly total: number;
}

export function reportSiteState(ctx: ActorContext<Message>, s: SiteState): void {
  ctx.metrics.set('jobs.queued', s.queued);
  ctx.metrics.set('jobs.running', s.running);
  ctx.metrics.set('processors.busy', s.busy);
  ctx.metrics.set('processors.total', s.total);
}
