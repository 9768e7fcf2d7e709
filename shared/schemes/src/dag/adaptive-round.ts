import type { DagJob, ParentSet } from './dag-job.js';
import {
  rescheduleParentSet,
  type Move,
  type PlacedTask,
  type ResourceLoad,
  type RescheduleOptions,
} from './reschedule.js';

/**
 * Steps 1 and 2 of paper 003's adaptive algorithm (§3) over the whole grid, as one pure round:
 * from the running tasks' progress reports (step 1), predict each task's remaining work, then
 * reschedule the fully scheduled parent sets in order of increasing running tasks, so that
 * almost finished sets get the fastest resources first (step 2), each move seen by the next set.
 *
 * - **The estimate.** §3 predicts a task's length as E = T / P after T seconds at progress P. Our
 *   resources are shared, so a task's speed changes; the same estimator in work is
 *   W = done / P, and the remaining work W − done = done · (1/P − 1) MI. At a constant speed the
 *   two agree.
 * - **Initial tasks** take no part: they are not counted in a resource's load, and a set made only
 *   of them is not rescheduled; step 1's rule moves them out of a dependent task's way.
 * - **A set with a task that has reported no progress yet** cannot be estimated and waits for the
 *   next round.
 */
export interface RunningTaskReport {
  readonly job: string;
  readonly task: string;
  readonly resource: string;
  /** MI it has executed on its resources so far. */
  readonly done_mi: number;
  /** P in [0, 1], as the task reports it (the prediction model's, not the truth). */
  readonly progress: number;
}

/** Remaining work predicted from progress (E = T / P, §3), in MI; undefined before any progress. */
export function predictedRemaining_mi(done_mi: number, progress: number): number | undefined {
  if (!(progress > 0) || !(done_mi > 0)) return undefined;
  return done_mi * (1 / Math.min(1, progress) - 1);
}

/** A task's name across jobs: `<job>/<task>`. */
export const taskKey = (job: string, task: string): string => `${job}/${task}`;

export function rescheduleRound(
  jobs: readonly DagJob[],
  running: readonly RunningTaskReport[],
  resources: readonly ResourceLoad[],
  o: RescheduleOptions,
): Move[] {
  const byJob = new Map(jobs.map((j) => [j.name, j]));
  const where = new Map(running.map((r) => [taskKey(r.job, r.task), r.resource]));
  const loads = resources.map((r) => ({ ...r }));

  // Each running dependent task's own set: the smallest that holds it (a subset before its superset).
  const placed: PlacedTask[] = [];
  const candidates: { key: string; job: DagJob; set: ParentSet; running: number }[] = [];
  for (const r of running) {
    const job = byJob.get(r.job);
    if (!job) throw new Error(`assertion: progress report for ${taskKey(r.job, r.task)}, whose job is not known`);
    if (job.isInitial(r.task)) continue;
    const remaining = predictedRemaining_mi(r.done_mi, r.progress);
    const home = job.parentSets.find((s) => s.members.includes(r.task));
    if (remaining === undefined || !home) continue;
    placed.push({ id: taskKey(r.job, r.task), set: setKey(job, home), resource: r.resource, remaining_mi: remaining });
  }
  const estimated = new Set(
    running
      .filter((r) => predictedRemaining_mi(r.done_mi, r.progress) !== undefined)
      .map((r) => taskKey(r.job, r.task)),
  );
  for (const job of jobs) {
    for (const set of job.parentSets) {
      if (!job.fullyScheduled(set) || set.members.every((m) => job.isInitial(m))) continue;
      const members = set.members.filter((m) => job.stateOf(m) === 'running');
      if (members.some((m) => !estimated.has(taskKey(job.name, m)))) continue;
      candidates.push({ key: setKey(job, set), job, set, running: members.length });
    }
  }
  candidates.sort((a, b) => a.running - b.running || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const moves: Move[] = [];
  for (const c of candidates) {
    const mine = new Set(c.set.members.map((m) => taskKey(c.job.name, m)));
    const view = placed.map((t) => {
      const resource = where.get(t.id)!;
      if (!mine.has(t.id)) return { ...t, resource };
      // A member of a smaller set inside this one keeps that set as its subset: its end is guarded.
      const inSubset = c.set.inSubset.has(t.id.slice(c.job.name.length + 1));
      return { ...t, set: c.key, resource, ...(inSubset ? { subset: t.set } : {}) };
    });
    for (const m of rescheduleParentSet(c.key, view, loads, o)) {
      moves.push(m);
      where.set(m.task, m.to);
      loads.find((r) => r.id === m.from)!.running--;
      loads.find((r) => r.id === m.to)!.running++;
    }
  }
  return moves;
}

function setKey(job: DagJob, set: ParentSet): string {
  return `${job.name}:${set.child}`;
}
