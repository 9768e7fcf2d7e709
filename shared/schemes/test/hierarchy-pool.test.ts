import { describe, expect, it } from 'vitest';
import type { Message } from '@gridemu/protocol';
import { Rng, SimRuntime, type Actor, type ActorContext } from '@gridemu/runtime';
import { AlternatingPeriods } from '../src/alternating-periods.js';
import { CycleTicks } from '../src/cycle-ticks.js';
import { GridActor, type PoolModel } from '../src/hierarchy/grid-actor.js';
import { gridAddress } from '../src/hierarchy/names.js';

/**
 * Paper 000's Condor pools against a scripted queue: it submits what the test says when the test
 * says, flocks a handed-back job to the next pool, and records what the pools report.
 */
interface Submission {
  readonly at: number;
  readonly jobId: string;
  readonly grid: string;
  readonly work_s: number;
  readonly flock?: boolean;
}

class ScriptedQueue implements Actor<Message> {
  readonly started: { jobId: string; at: number; grid: string }[] = [];
  readonly done: { jobId: string; at: number; evicted: boolean }[] = [];
  readonly unmatched: { jobId: string; at: number; grid: string }[] = [];
  private readonly gridOf = new Map<string, string>();

  constructor(
    private readonly plan: readonly Submission[],
    /** Where a handed-back job flocks to, by the pool that handed it back. */
    private readonly next: Readonly<Record<string, string>> = {},
  ) {}

  start(ctx: ActorContext<Message>): void {
    this.plan.forEach((s, i) => ctx.schedule(s.at, { type: 'timer.hq-job-ready', jobId: String(i) }));
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case 'timer.hq-job-ready': {
        const s = this.plan[Number(msg.jobId)]!;
        this.submit(ctx, s.jobId, s.grid, s.work_s, s.flock ?? false);
        return;
      }
      case 'hq.job-started':
        this.started.push({ jobId: msg.jobId, at: ctx.now(), grid: this.gridOf.get(msg.jobId)! });
        return;
      case 'hq.job-done':
        this.done.push({ jobId: msg.jobId, at: ctx.now(), evicted: msg.evicted });
        return;
      case 'hq.job-unmatched': {
        const at = this.gridOf.get(msg.jobId)!;
        this.unmatched.push({ jobId: msg.jobId, at: ctx.now(), grid: at });
        const work = this.plan.find((s) => s.jobId === msg.jobId)!.work_s;
        this.submit(ctx, msg.jobId, this.next[at]!, work, false);
        return;
      }
    }
  }

  private submit(ctx: ActorContext<Message>, jobId: string, grid: string, work_s: number, flock: boolean): void {
    this.gridOf.set(jobId, grid);
    ctx.send(gridAddress(grid), { type: 'hq.job-submit', jobId, work_s, priority: 1, flock });
  }
}

const POOL: PoolModel = {
  cpus: 4,
  N: 4,
  P: 1,
  overhead_s: 0,
  evictions_per_hour: 0,
  cycle_s: 0,
  others_share: 0,
  beta: 1,
  preempt: false,
};

function run(pools: Record<string, Partial<PoolModel>>, plan: Submission[], next: Record<string, string> = {}) {
  const rt = new SimRuntime<Message>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
  const queue = new ScriptedQueue(plan, next);
  rt.spawn({ address: 'Q/queue', location: 'Q', actor: queue });
  for (const [id, p] of Object.entries(pools))
    rt.spawn({ address: gridAddress(id), location: id, actor: new GridActor(id, { ...POOL, ...p }, 1e9, 1) });
  rt.start();
  rt.step(100_000, () => queue.done.length >= plan.length && queue.started.length >= plan.length);
  return queue;
}

describe("paper 000's Condor pools: negotiation cycles, flocking, outages", () => {
  it('a pool matches no job between cycles: every start is on a tick, the first at or after submission', () => {
    const ticks = new CycleTicks(300, 1, 'hierarchy/negotiation/A');
    const q = run({ A: { cycle_s: 300 } }, [
      { at: 10, jobId: 'j1', grid: 'A', work_s: 5000 },
      { at: 700, jobId: 'j2', grid: 'A', work_s: 5000 },
      { at: 701, jobId: 'j3', grid: 'A', work_s: 5000 },
    ]);
    const at = Object.fromEntries(q.started.map((s) => [s.jobId, s.at]));
    expect(at['j1']).toBeCloseTo(ticks.nextTick(10), 9);
    expect(at['j2']).toBeCloseTo(ticks.nextTick(700.001), 9);
    expect(at['j3']).toBe(at['j2']);
    for (const s of q.started) expect(s.at).toBeCloseTo(ticks.nextTick(s.at - 1e-6), 6);
  });

  it("a cycle reaches this user only at others' fair share, and then matches at most the user's part", () => {
    // 10 matches a cycle, others' share 0.7: a cycle reaches ours with chance 0.3, and gives it 3.
    const ticks = new CycleTicks(300, 1, 'hierarchy/negotiation/A');
    const plan = Array.from({ length: 7 }, (_, i) => ({ at: 0, jobId: `j${i}`, grid: 'A', work_s: 1e6 }));
    const q = run({ A: { cpus: 100, N: 100, cycle_s: 300, matches_per_cycle: 10, others_share: 0.7 } }, plan);
    // The same draws, by hand: which cycles reach the user, and what each then matches.
    const order = new Rng(1, 'hierarchy/negotiation-order/A');
    const expected: number[] = [];
    for (let left = 7; left > 0;) {
      const n = order.next() < 0.3 ? Math.min(3, left) : 0;
      expected.push(n);
      left -= n;
    }
    expect(expected.filter((n) => n === 0).length).toBeGreaterThan(0); // some cycles pass this user over
    const first = ticks.nextTick(0.001);
    const observed = expected.map((_, k) => q.started.filter((s) => Math.abs(s.at - (first + 300 * k)) < 1e-6).length);
    expect(observed).toEqual(expected);
  });

  it('a flocked request moves to the second pool when a cycle of the first, full, leaves it unmatched', () => {
    const a = new CycleTicks(300, 1, 'hierarchy/negotiation/A');
    const b = new CycleTicks(300, 1, 'hierarchy/negotiation/B');
    const q = run(
      { A: { cpus: 1, N: 1, cycle_s: 300 }, B: { cpus: 4, N: 4, cycle_s: 300 } },
      [
        { at: 0, jobId: 'j1', grid: 'A', work_s: 1e5, flock: true },
        { at: 0, jobId: 'j2', grid: 'A', work_s: 1e5, flock: true },
      ],
      { A: 'B' },
    );
    const tickA = a.nextTick(0.001);
    expect(q.started.find((s) => s.jobId === 'j1')).toMatchObject({ grid: 'A' });
    expect(q.started.find((s) => s.jobId === 'j1')!.at).toBeCloseTo(tickA, 9);
    // A's first cycle had one CPU: j2 was handed back then, and B matched it at its next tick.
    expect(q.unmatched).toEqual([{ jobId: 'j2', at: expect.closeTo(tickA, 9), grid: 'A' }]);
    const j2 = q.started.find((s) => s.jobId === 'j2')!;
    expect(j2.grid).toBe('B');
    expect(j2.at).toBeCloseTo(b.nextTick(tickA + 1e-6), 9);
  });

  it('an outage evicts what runs and matches nothing until it ends', () => {
    const outages = { mean_s: 2000, mean_between_s: 5000 };
    const periods = new AlternatingPeriods(2000, 5000, 1, 'hierarchy/outage/A');
    const down = periods.nextChange(0);
    const up = periods.nextChange(down);
    const q = run({ A: { outages } }, [
      { at: 0, jobId: 'j1', grid: 'A', work_s: 1e7 },
      { at: down + 1, jobId: 'j2', grid: 'A', work_s: 10 },
    ]);
    expect(q.started.find((s) => s.jobId === 'j1')!.at).toBe(0);
    expect(q.done.find((d) => d.jobId === 'j1')).toEqual({ jobId: 'j1', at: down, evicted: true });
    // Submitted during the outage: it starts when the outage ends, not before.
    expect(q.started.find((s) => s.jobId === 'j2')!.at).toBeCloseTo(up, 9);
    expect(q.done.find((d) => d.jobId === 'j2')).toMatchObject({ evicted: false });
  });
});
