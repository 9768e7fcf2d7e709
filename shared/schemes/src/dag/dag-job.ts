import { largest } from '@gridemu/model';

/**
 * One DAG job of paper 003 (§2): tasks with input dependencies. A task is *initial* when it has no
 * parents; the parents of a task form its *parent set*, whose members must all finish before it
 * runs. A task is ready once every parent has finished; the runtime then moves the parents'
 * outputs to wherever it runs before starting it.
 *
 * Pure bookkeeping of the tasks' states, so the schedulers of §3 can ask which tasks are ready,
 * which parent sets are fully scheduled (step 2) and which are partly processed (step 3).
 */
export interface DagTaskSpec {
  readonly id: string;
  readonly parents: readonly string[];
  /** Its length in MI, as its holder knows it (GSched: the task's rough estimate). */
  readonly work_mi: number;
}

export type DagTaskState = 'waiting' | 'ready' | 'running' | 'done';

export interface ParentSet {
  /** The task the set feeds (the first, in task order, when several tasks share one set). */
  readonly child: string;
  /** Its members, in task order. */
  readonly members: readonly string[];
  /** Members that also form part of a smaller parent set inside this one (§3: not moved to slower resources). */
  readonly inSubset: ReadonlySet<string>;
}

export class DagJob {
  private readonly state = new Map<string, DagTaskState>();
  private readonly specs = new Map<string, DagTaskSpec>();
  private readonly children = new Map<string, string[]>();
  private sets: ParentSet[] | undefined;
  private unfinished = 0;

  /** A DAG of these tasks, checked whole: every parent a task, ids unique, no cycle. */
  constructor(
    readonly name: string,
    tasks: readonly DagTaskSpec[] = [],
  ) {
    for (const t of tasks) this.add(t);
    if (tasks.length === 0) return;
    for (const t of tasks)
      for (const p of t.parents)
        if (!this.specs.has(p)) throw new Error(`DAG ${name}: task ${t.id} names parent ${p}, which is not a task`);
    this.checkAcyclic(tasks);
  }

  /**
   * One more task, as a scheduler learns them one submission at a time (a live process knows no
   * workload beforehand). A parent it names may come later; the task waits until every parent
   * has come and finished.
   */
  add(t: DagTaskSpec): void {
    if (this.specs.has(t.id)) throw new Error(`DAG ${this.name}: task id ${t.id} appears twice`);
    this.specs.set(t.id, t);
    this.unfinished++;
    if (!this.children.has(t.id)) this.children.set(t.id, []);
    for (const p of t.parents) {
      const list = this.children.get(p) ?? [];
      list.push(t.id);
      this.children.set(p, list);
    }
    this.state.set(t.id, this.parentsDone(t) ? 'ready' : 'waiting');
    this.sets = undefined; // the parent sets change with every task
  }

  /** Parent sets, smaller before larger, so a subset is handled before the sets that contain it (§3). */
  get parentSets(): readonly ParentSet[] {
    this.sets ??= parentSetsOf([...this.specs.values()]);
    return this.sets;
  }

  get tasks(): readonly DagTaskSpec[] {
    return [...this.specs.values()];
  }

  task(id: string): DagTaskSpec {
    const t = this.specs.get(id);
    if (!t) throw new Error(`assertion: DAG ${this.name} has no task ${id}`);
    return t;
  }

  stateOf(id: string): DagTaskState {
    this.task(id);
    return this.state.get(id)!;
  }

  isInitial(id: string): boolean {
    return this.task(id).parents.length === 0;
  }

  /**
   * Its longest chain of `length` over the tasks it knows (a parent not yet known adds nothing):
   * with the lengths the scheduler estimates, the job's initially estimated length (§4).
   */
  longestChain(length: (t: DagTaskSpec) => number): number {
    const memo = new Map<string, number>();
    const chain = (id: string): number => {
      const known = memo.get(id);
      if (known !== undefined) return known;
      const t = this.specs.get(id);
      const total = t ? length(t) + Math.max(0, ...t.parents.map(chain)) : 0;
      memo.set(id, total);
      return total;
    };
    return Math.max(0, largest([...this.specs.keys()].map(chain)));
  }

  /** Tasks ready to run, in task order. */
  ready(): string[] {
    return [...this.state].filter(([, s]) => s === 'ready').map(([id]) => id);
  }

  /** Whether every task it knows has finished: the job's final task among them. */
  get done(): boolean {
    return this.unfinished === 0 && this.specs.size > 0;
  }

  start(id: string): void {
    if (this.stateOf(id) !== 'ready')
      throw new Error(`assertion: task ${id} of ${this.name} started while ${this.state.get(id)}`);
    this.state.set(id, 'running');
  }

  /** An interrupted, migrating or failed task is ready again (its checkpoint is the runtime's). */
  requeue(id: string): void {
    if (this.stateOf(id) !== 'running')
      throw new Error(`assertion: task ${id} of ${this.name} requeued while ${this.state.get(id)}`);
    this.state.set(id, 'ready');
  }

  /** Marks a running task finished; returns the tasks it made ready, in task order. */
  finish(id: string): string[] {
    if (this.stateOf(id) !== 'running')
      throw new Error(`assertion: task ${id} of ${this.name} finished while ${this.state.get(id)}`);
    this.state.set(id, 'done');
    this.unfinished--;
    const ready: string[] = [];
    for (const c of this.children.get(id)!) {
      if (this.specs.has(c) && this.state.get(c) === 'waiting' && this.parentsDone(this.task(c))) {
        this.state.set(c, 'ready');
        ready.push(c);
      }
    }
    return ready;
  }

  /** A set with no idle member: each is running or done, and at least one runs (step 2's sets). */
  fullyScheduled(set: ParentSet): boolean {
    const states = set.members.map((m) => this.state.get(m)!);
    return states.every((s) => s === 'running' || s === 'done') && states.includes('running');
  }

  /** A set some of whose members have started and some not (step 3 serves these first). */
  partlyProcessed(set: ParentSet): boolean {
    const states = set.members.map((m) => this.state.get(m)!);
    return states.some((s) => s === 'running' || s === 'done') && states.some((s) => s === 'waiting' || s === 'ready');
  }

  private parentsDone(t: DagTaskSpec): boolean {
    return t.parents.every((p) => this.state.get(p) === 'done');
  }

  private checkAcyclic(tasks: readonly DagTaskSpec[]): void {
    // Kahn's algorithm: whatever never reaches in-degree 0 lies on a cycle.
    const indegree = new Map(tasks.map((t) => [t.id, t.parents.length]));
    const queue = tasks.filter((t) => t.parents.length === 0).map((t) => t.id);
    let seen = 0;
    while (queue.length > 0) {
      const id = queue.pop()!;
      seen++;
      for (const c of this.children.get(id) ?? []) {
        const d = indegree.get(c)! - 1;
        indegree.set(c, d);
        if (d === 0) queue.push(c);
      }
    }
    if (seen < tasks.length) {
      const onCycle = tasks.filter((t) => indegree.get(t.id)! > 0).map((t) => t.id);
      throw new Error(`DAG ${this.name}: its dependencies form a cycle through ${onCycle.slice(0, 5).join(', ')}`);
    }
  }
}

function parentSetsOf(tasks: readonly DagTaskSpec[]): ParentSet[] {
  const order = new Map(tasks.map((t, i) => [t.id, i]));
  const byKey = new Map<string, { child: string; members: string[] }>();
  for (const t of tasks) {
    if (t.parents.length === 0) continue;
    const members = [...new Set(t.parents)].sort((a, b) => order.get(a)! - order.get(b)!);
    const key = members.join('\u0000');
    if (!byKey.has(key)) byKey.set(key, { child: t.id, members });
  }
  const sets = [...byKey.values()].sort(
    (a, b) => a.members.length - b.members.length || order.get(a.child)! - order.get(b.child)!,
  );
  return sets.map((s) => {
    const mine = new Set(s.members);
    const inSubset = new Set<string>();
    for (const other of sets) {
      if (other === s || other.members.length >= s.members.length) continue;
      if (other.members.every((m) => mine.has(m))) for (const m of other.members) inSubset.add(m);
    }
    return { child: s.child, members: s.members, inSubset };
  });
}
