import type { ResourceLoad } from './reschedule.js';

/**
 * Step 3 of paper 003's adaptive algorithm (§3): ready tasks (new, or failed and rerun from their
 * checkpoint) go to the resources that are still available after step 2. Pure: it takes the ready
 * tasks grouped by parent set and the resources' loads, and returns where each task goes.
 *
 * - Order: partly processed parent sets first, then the longest waiting (§3: "partially processed
 *   parent sets always get the highest priority").
 * - A group is placed in one iteration, as step 2 places a set: its longest task (by its rough
 *   estimate, or what its checkpoint leaves) takes the fastest resource; each other task takes the
 *   slowest resource that keeps it within the longest task's time, so the set ends together and
 *   faster resources stay free for the next group.
 * - Available: a resource running no dependent task. When none is, a task shares the resource
 *   where it would run fastest (speed = MIPS over dependent tasks, initial ones not counted).
 */
export interface ReadyTask {
  readonly id: string;
  /** Its predicted remaining work, MI: the initial estimate, less what a checkpoint kept. */
  readonly estimate_mi: number;
}

export interface ReadyGroup {
  /** The parent set the tasks belong to (or the task's own id when it is in none). */
  readonly set: string;
  /** Some of the set has run or runs already. */
  readonly partlyProcessed: boolean;
  /** When its first task became ready: longest waiting first. */
  readonly readySince_s: number;
  readonly tasks: readonly ReadyTask[];
}

export interface Assignment {
  readonly task: string;
  readonly resource: string;
}

export function scheduleReady(groups: readonly ReadyGroup[], resources: readonly ResourceLoad[]): Assignment[] {
  if (resources.length === 0) throw new Error('step 3 needs at least one resource');
  const load = new Map(resources.map((r) => [r.id, r.running]));
  const speedIfJoined = (r: ResourceLoad) => r.mips / (load.get(r.id)! + 1);
  const order = [...groups].sort(
    (a, b) =>
      Number(b.partlyProcessed) - Number(a.partlyProcessed) ||
      a.readySince_s - b.readySince_s ||
      (a.set < b.set ? -1 : a.set > b.set ? 1 : 0),
  );
  const out: Assignment[] = [];
  for (const g of order) {
    const tasks = [...g.tasks].sort((a, b) => b.estimate_mi - a.estimate_mi || (a.id < b.id ? -1 : 1));
    let limit_s = 0;
    for (const [i, t] of tasks.entries()) {
      const free = resources.filter((r) => load.get(r.id) === 0);
      const pool = free.length > 0 ? free : resources;
      // Fastest first; equal speeds: the faster machine, then by id, so the choice is deterministic.
      const fastest = [...pool].sort(
        (a, b) => speedIfJoined(b) - speedIfJoined(a) || b.mips - a.mips || (a.id < b.id ? -1 : 1),
      );
      let chosen = fastest[0]!;
      if (i === 0) {
        limit_s = t.estimate_mi / speedIfJoined(chosen);
      } else {
        // The slowest that keeps this task within the group's longest time, if one does.
        const within = fastest.filter((r) => t.estimate_mi / speedIfJoined(r) <= limit_s + 1e-9);
        if (within.length > 0) chosen = within[within.length - 1]!;
      }
      load.set(chosen.id, load.get(chosen.id)! + 1);
      out.push({ task: t.id, resource: chosen.id });
    }
  }
  return out;
}
