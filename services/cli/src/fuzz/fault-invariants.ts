import { hasConfirmedRuns } from '@gridemu/actors';
import type { JobRecord } from '@gridemu/metrics';
import type { GridPlan } from '@gridemu/schemes';

/**
 * Checked after every delivery of a fuzzed run: no job runs for good at two sites at
 * once. (Over capacity and twice-started are the actors' own assertions: ProcessorIds and the
 * driver throw.) Optimistic copies that run before their verdict are not counted: paper 001 §7
 * runs them on purpose, and kills the losers.
 */
export function assertNoJobAtTwoSites(plan: GridPlan): void {
  const at = new Map<string, string>();
  for (const p of plan.actors) {
    if (!hasConfirmedRuns(p.actor)) continue;
    for (const id of p.actor.confirmedRuns()) {
      const other = at.get(id);
      if (other !== undefined) throw new Error(`invariant: ${id} runs at ${other} and ${p.actor.siteId} at once`);
      at.set(id, p.actor.siteId);
    }
  }
}

/** Every run of every job, the ones lost in crashes included, for the overlap check. */
export function allRuns(
  records: readonly JobRecord[],
): { jobId: string; site: string; start_s: number; end_s: number }[] {
  const runs: { jobId: string; site: string; start_s: number; end_s: number }[] = [];
  for (const r of records) {
    for (const l of r.lostRuns) runs.push({ jobId: r.job.id, site: l.site, start_s: l.start_s, end_s: l.end_s });
    if (r.start_s !== undefined && r.finish_s !== undefined && r.execSite !== undefined)
      runs.push({ jobId: r.job.id, site: r.execSite, start_s: r.start_s, end_s: r.finish_s });
  }
  return runs;
}
