import type { Message } from '@gridemu/protocol';
import type { ActorContext } from '@gridemu/runtime';

/**
 * What every family's executing actors tell a live process's /metrics, under one set of names, so
 * that the Grafana dashboard (deploy/grafana) and `gridemu run --prometheus` read any scheme's run:
 * the site's state as gauges, and its jobs' starts, waits and completions. A simulation keeps the
 * counters and drops the rest.
 */

/** A site's state now, reported after each message it handles. */
export interface SiteState {
  /** Jobs (or tasks) here that have not started. */
  readonly queued: number;
  readonly running: number;
  /** Processors running something, of `total`, the site's in all (its `cpus`). */
  readonly busy: number;
  readonly total: number;
}

/** `gridemu_jobs_queued`, `gridemu_jobs_running`, `gridemu_processors_busy`, `gridemu_processors_total`. */
export function reportSiteState(ctx: ActorContext<Message>, s: SiteState): void {
  ctx.metrics.set('jobs.queued', s.queued);
  ctx.metrics.set('jobs.running', s.running);
  ctx.metrics.set('processors.busy', s.busy);
  ctx.metrics.set('processors.total', s.total);
}

/** A run starts (again, after a lost one, too): `gridemu_jobs_started_total` and `gridemu_jobs_wait_seconds`. */
export function countJobStarted(ctx: ActorContext<Message>, wait_s: number): void {
  ctx.metrics.count('jobs.started');
  ctx.metrics.observe('jobs.wait_s', wait_s);
}

/** A job completed here, once: `gridemu_jobs_completed_total`, which `--prometheus` checks against jobs.csv. */
export function countJobCompleted(ctx: ActorContext<Message>): void {
  ctx.metrics.count('jobs.completed');
}
