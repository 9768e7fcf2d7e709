import { largest } from '@gridemu/model';

/**
 * Step 2 of paper 003's adaptive algorithm (§3): reschedule the tasks of one fully scheduled
 * parent set so that they finish about together, on no faster resources than they need. Pure: it
 * takes predicted remaining work and resource loads, and returns the moves.
 *
 * A resource's speed for a task is its MIPS divided by the tasks it runs (initial tasks not
 * counted). A task's predicted time is its remaining work at that speed, plus the migration's cost
 * (checkpoint, transfer, restart) if it moves. The loop: take the set's longest task j; try the
 * resources faster for it than its own, fastest first; a move is taken only if it shortens j by at
 * least `min_improvement` (MP, §4) and delays no other parent set, a subset of this one included. If another task becomes the
 * longest, repeat with it; if j stays the longest (or cannot move), the set's time cannot shrink
 * further, and the other tasks go to the slowest resources that keep them under that time.
 */
export interface ResourceLoad {
  readonly id: string;
  readonly mips: number;
  /** Tasks running on it, initial tasks not counted. */
  running: number;
}

export interface PlacedTask {
  readonly id: string;
  /** Its parent set; tasks of other sets are only checked for delay. */
  readonly set: string;
  resource: string;
  /** Predicted remaining work, MI (E − T at the current speed, in instructions). */
  readonly remaining_mi: number;
  /**
   * The smaller parent set inside this one that it is part of, if any (§3: {1,2} inside {1,2,3}):
   * it is not moved to slower resources, and no move may delay that subset's end.
   */
  readonly subset?: string;
}

export interface RescheduleOptions {
  /** Seconds a migration costs the moved task: checkpoint, transfer and restart. */
  readonly migration_s: number;
  /** MP: skip a move that shortens the task's predicted time by less than this fraction. */
  readonly min_improvement: number;
}

export interface Move {
  readonly task: string;
  readonly from: string;
  readonly to: string;
}

export function rescheduleParentSet(
  set: string,
  tasks: readonly PlacedTask[],
  resources: readonly ResourceLoad[],
  o: RescheduleOptions,
): Move[] {
  const res = new Map(resources.map((r) => [r.id, { ...r }]));
  const placed = tasks.map((t) => ({ ...t, penalty_s: 0 }));
  const mine = placed.filter((t) => t.set === set);
  const time = (t: (typeof placed)[number]) =>
    t.penalty_s + t.remaining_mi / (res.get(t.resource)!.mips / res.get(t.resource)!.running);
  const setMax = (s: string) => largest(placed.filter((t) => t.set === s).map(time));
  // The sets a move must not delay: every other set, and the subsets inside this one (their own end
  // is the predicted end of their members, wherever those are counted).
  const subsetMax = (s: string) => largest(placed.filter((t) => t.subset === s).map(time));
  const subsets = [...new Set(mine.flatMap((t) => (t.subset === undefined ? [] : [t.subset])))];
  const otherSets = [...new Set(placed.map((t) => t.set))].filter((s) => s !== set);
  const guarded = () => [...otherSets.map(setMax), ...subsets.map(subsetMax)];
  const moves: Move[] = [];

  /** Moves t to r if that keeps every other set's predicted end; undoes it and says false otherwise. */
  const tryMove = (t: (typeof placed)[number], to: string, accept: () => boolean): boolean => {
    const before = guarded();
    const from = t.resource;
    const penalty = t.penalty_s;
    res.get(from)!.running--;
    res.get(to)!.running++;
    t.resource = to;
    t.penalty_s = o.migration_s;
    const delays = guarded().some((end, k) => end > before[k]! + 1e-9);
    if (!delays && accept()) {
      moves.push({ task: t.id, from, to });
      return true;
    }
    res.get(to)!.running--;
    res.get(from)!.running++;
    t.resource = from;
    t.penalty_s = penalty;
    return false;
  };
  const speedIfJoined = (r: string, t: (typeof placed)[number]) =>
    res.get(r)!.mips / (res.get(r)!.running + (t.resource === r ? 0 : 1));

  for (let round = 0; round < mine.length * resources.length; round++) {
    const j = mine.reduce((a, b) => (time(b) > time(a) ? b : a));
    const current = time(j);
    const mySpeed = res.get(j.resource)!.mips / res.get(j.resource)!.running;
    const faster = [...res.keys()]
      .filter((r) => r !== j.resource && speedIfJoined(r, j) > mySpeed)
      .sort((a, b) => speedIfJoined(b, j) - speedIfJoined(a, j) || (a < b ? -1 : 1));
    const moved = faster.some((r) =>
      tryMove(j, r, () => time(j) <= current * (1 - o.min_improvement) && setMax(set) < current),
    );
    if (!moved) break;
    const longest = mine.reduce((a, b) => (time(b) > time(a) ? b : a));
    if (longest !== j) continue;
    // j is still the longest: the set's limit. The others take the slowest resources that keep them
    // under it (equal speeds: the slower machine first, keeping faster hardware free).
    const limit = time(j);
    for (const i of mine) {
      if (i === j || i.subset !== undefined) continue;
      const ownSpeed = res.get(i.resource)!.mips / res.get(i.resource)!.running;
      const slower = [...res.keys()]
        .filter((r) => r !== i.resource && speedIfJoined(r, i) < ownSpeed)
        .sort(
          (a, b) =>
            speedIfJoined(a, i) - speedIfJoined(b, i) || res.get(a)!.mips - res.get(b)!.mips || (a < b ? -1 : 1),
        );
      slower.some((r) => tryMove(i, r, () => time(i) < limit && setMax(set) <= limit + 1e-9));
    }
    break;
  }
  return moves;
}
