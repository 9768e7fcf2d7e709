import type { Move } from './reschedule.js';

/**
 * Step 1's rule for initial tasks (paper 003, §3): initial tasks have no inputs, start at once and
 * can fill the grid, so the scheduler keeps track of where they run, and "each time a dependent
 * task is rescheduled to a particular resource, the initial tasks running on that resource can be
 * interrupted and reassigned to the slowest available free resources". Pure: it takes where the
 * initial tasks are and what each resource holds, and returns the moves.
 *
 * - An initial task is moved when a dependent task runs (or is on its way) on its resource: there
 *   it stands still (shared-resource.ts), so any free resource is better.
 * - Free: a resource holding no task at all, initial or dependent. Each move fills one, so the
 *   initial tasks spread over the slowest free resources, keeping the fast ones for dependents.
 * - With no free resource left, a task stays and resumes when its resource clears.
 */
export interface InitialTaskPlace {
  readonly id: string;
  readonly resource: string;
}

export interface ResourceHolding {
  readonly id: string;
  readonly mips: number;
  /** Dependent tasks running on it or on their way to it. */
  readonly dependents: number;
  /** Initial tasks on it or on their way to it. */
  readonly initials: number;
}

export function relocateInitialTasks(
  initial: readonly InitialTaskPlace[],
  resources: readonly ResourceHolding[],
): Move[] {
  const holding = new Map(resources.map((r) => [r.id, { ...r }]));
  const free = resources
    .filter((r) => r.dependents === 0 && r.initials === 0)
    .sort((a, b) => a.mips - b.mips || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => r.id);
  const moves: Move[] = [];
  for (const t of initial) {
    const from = holding.get(t.resource);
    if (!from)
      throw new Error(`assertion: initial task ${t.id} is on resource ${t.resource}, which is not in the grid`);
    if (from.dependents === 0) continue;
    const to = free.shift();
    if (to === undefined) break;
    moves.push({ task: t.id, from: t.resource, to });
  }
  return moves;
}
