import { describe, expect, it } from 'vitest';
import { summarize } from '@gridemu/metrics';
import {
  loadExperimentWorkload as loadWorkload,
  parseExperiment,
  planGrid,
  schemeBusyProcessor_s,
  simulate,
} from '../src/index.js';
import type { Address, Message } from '@gridemu/protocol';
import { SimRuntime, type Actor, type ActorContext } from '@gridemu/runtime';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXAMPLE = resolve(fileURLToPath(import.meta.url), '../../../../examples/hierarchy-table1.yaml');

/** The Table 1 example under `scheme`; `dagman_s` replaces the example's DAGMan delay when given. */
function spec(scheme: string, extra = '', dagman_s?: number) {
  let text = readFileSync(EXAMPLE, 'utf8').replace('scheme: mq-hierarchy', `scheme: ${scheme}`) + extra;
  if (dagman_s !== undefined) text = text.replace(/dagman_s: \d+/, `dagman_s: ${dagman_s}`);
  return parseExperiment(text, EXAMPLE).spec;
}

/** Table 1 with a long task of 3000 twenty-minute jobs (the paper's are about an hour): same shape, a third of the time. */
async function table1(scheme: string, dagman_s?: number) {
  const s = spec(scheme, '', dagman_s);
  const short = {
    ...s,
    workload: [
      {
        ...s.workload[0]!,
        tasks: {
          list: [
            { submit_s: 0, work_s: 3_600_000, jobs: 3000 },
            { submit_s: 60, work_s: 30 },
          ],
        },
      },
    ],
  } as typeof s;
  const w = await loadWorkload(short, { specFile: EXAMPLE });
  const r = simulate(short, w.jobs);
  const [long, quick] = r.records;
  return { long: long!, quick: quick! };
}

describe('paper 000, Table 1 (simulated)', () => {
  it('MQ over the hierarchy finishes the short task within minutes while the long task runs', async () => {
    const { long, quick } = await table1('mq-hierarchy');
    expect(quick.finish_s! - quick.job.submit_s).toBeLessThan(120);
    expect(quick.execSite).toBe('Q1');
    expect(long.finish_s!).toBeGreaterThan(quick.finish_s! + 3600);
    expect(long.migrations).toBeGreaterThanOrEqual(1);
  });

  it('under FCFS the short task waits hours behind the long one, flat or hierarchical', async () => {
    for (const scheme of ['fcfs-flat', 'fcfs-hierarchy']) {
      const { quick } = await table1(scheme);
      expect(quick.finish_s! - quick.job.submit_s, scheme).toBeGreaterThan(3600);
    }
  });

  it("adds DAGMan's seconds to a parallel task's end, and none to a task Q1 runs whole (§6)", async () => {
    for (const scheme of ['mq-flat', 'mq-hierarchy']) {
      const without = await table1(scheme, 0);
      const withDagman = await table1(scheme, 4);
      // The long task runs in parallel on Condor pools; the short one runs whole at Q1, where DAGMan has no part.
      expect(without.quick.execSite, scheme).toBe('Q1');
      expect(withDagman.long.finish_s! - without.long.finish_s!, scheme).toBeCloseTo(4, 6);
      expect(withDagman.quick.finish_s!, scheme).toBe(without.quick.finish_s!);
    }
  });

  it("MQ over a flat pool runs the short task soon, but with the big pool's overhead", async () => {
    const flat = await table1('mq-flat');
    const hier = await table1('mq-hierarchy');
    expect(flat.quick.finish_s! - flat.quick.job.submit_s).toBeLessThan(3600);
    expect(flat.quick.finish_s!).toBeGreaterThan(hier.quick.finish_s!);
  });
});

/** Wraps an actor and records what it receives. */
class Spy implements Actor<Message> {
  constructor(
    private readonly inner: Actor<Message>,
    private readonly log: { at: number; to: Address; from: Address; msg: Message }[],
    private readonly self: Address,
  ) {}
  start(ctx: ActorContext<Message>): void {
    this.inner.start?.(ctx);
  }
  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    this.log.push({ at: ctx.now(), to: this.self, from, msg });
    this.inner.receive(ctx, msg, from);
  }
}

describe("the hierarchy's utilization", () => {
  it("is the CPU-seconds its grids' jobs ran, evicted ones' too, over the CPUs × makespan: its tasks hold no processors", async () => {
    const s = spec('mq-hierarchy');
    const w = await loadWorkload(s, { specFile: EXAMPLE });
    const r = simulate(s, w.jobs);
    const busy = schemeBusyProcessor_s(s, r.counters)!;
    const lost = ['server', 'technion', 'madison'].reduce(
      (a, g) => a + (r.counters[`hierarchy.grid.${g}.lost_cpu_s`] ?? 0),
      0,
    );
    // What the jobs that were not evicted ran: each task's work once, at its grid's speed (the long
    // task on Madison's P = 1; the 30-second one on the server's P = 1.259).
    const ran = Object.values(busy).reduce((a, b) => a + b, 0);
    expect(ran - lost).toBeCloseTo(10_800_000 + 30 / 1.259, 1);
    const summary = summarize(r.records, r.execSites, busy);
    expect(summary.utilization.per_site['madison']).toBeCloseTo(busy['madison']! / (1500 * summary.makespan_s), 5);
    expect(summary.utilization.overall).toBeCloseTo(ran / (1702 * summary.makespan_s), 5);
    expect(summarize(r.records, r.execSites).utilization.overall).toBe(0);
  });
});

describe('the hierarchy over a task stream', () => {
  it('never runs a task in two queues at once, and a moved task keeps its finished jobs', async () => {
    const s = spec('mq-hierarchy');
    const stream = {
      ...s,
      workload: [
        {
          ...s.workload[0]!,
          tasks: {
            stream: {
              tasks: 120,
              short_share: 0.6,
              short_min_s: 30,
              short_max_s: 600,
              medium_share: 0.28,
              medium_max_s: 10800,
              tail_shape: 1.2,
              tail_max_s: 400000,
              burst_gap_s: 600,
              burst_size: 4,
              within_burst_gap_s: 20,
            },
            list: [],
          },
        },
      ],
    } as typeof s;
    const w = await loadWorkload(stream, { specFile: EXAMPLE });
    const plan = planGrid(stream, w.jobs);
    const log: { at: number; to: Address; from: Address; msg: Message }[] = [];
    const rt = new SimRuntime<Message>({ seed: 1, network: stream.network });
    for (const a of plan.actors) rt.spawn({ ...a, actor: new Spy(a.actor, log, a.address) });
    rt.start();
    rt.step(Number.POSITIVE_INFINITY, () => plan.driver.done);
    expect(plan.driver.done).toBe(true);

    // Per task: the queues with jobs on the grids, from a submission until they cancel them.
    const live = new Map<string, Set<string>>();
    const work = new Map<string, number>();
    let violations = 0;
    // Work of the jobs that ran to their end, per task, and the queues they finished in.
    const finished = new Map<string, number>();
    const finishedIn = new Map<string, Set<string>>();
    for (const e of log) {
      if (e.msg.type === 'hq.job-submit') {
        const [task, queue] = e.msg.jobId.split('~') as [string, string];
        work.set(e.msg.jobId, e.msg.work_s);
        const holders = live.get(task) ?? new Set<string>();
        live.set(task, holders);
        holders.add(queue);
        if (holders.size > 1) violations++;
      } else if (e.msg.type === 'hq.job-cancel') {
        const [task, queue] = e.msg.prefix.split('~') as [string, string];
        live.get(task)?.delete(queue);
      } else if (e.msg.type === 'hq.job-done' && !e.msg.evicted && e.to.endsWith('/queue')) {
        const [task, queue] = e.msg.jobId.split('~') as [string, string];
        finished.set(task, (finished.get(task) ?? 0) + work.get(e.msg.jobId)!);
        const qs = finishedIn.get(task) ?? new Set<string>();
        finishedIn.set(task, qs);
        qs.add(queue);
      }
    }
    expect(violations).toBe(0);
    const completed = plan.driver.records.filter((r) => r.finish_s !== undefined);
    expect(completed.length).toBeGreaterThan(60);
    for (const r of completed) {
      // Every completed task did its work exactly once: finished jobs are never run again after a move.
      expect(finished.get(r.job.id), r.job.id).toBeCloseTo(r.job.run_s, 3);
    }
    // Tasks did move (the checkpoint itself is DivisibleTask's, tested in hierarchy-task.test.ts).
    expect(completed.filter((r) => r.migrations > 0).length).toBeGreaterThan(0);
    void finishedIn;
  });
});

describe('a task that moves after some of its jobs finished', () => {
  it('keeps their results: the next queue runs only the rest, and the work is done exactly once', async () => {
    // Q2 loses a third of its jobs to evictions, so a task that fits its limits on paper falls
    // behind (§3.2.3) and, with another task queued, moves on by task potential overdue to Q4.
    const text = readFileSync(EXAMPLE, 'utf8')
      .replace(
        'technion: { N: 100, P: 1.194, cycle_s: 60, evictions_per_hour: 0.01 }',
        'technion: { N: 100, P: 1.194, cycle_s: 60, evictions_per_hour: 3 }',
      )
      .replace('T_q_min: 320, T_e_min: 160, job_min: 9.4, share_with: [Q3]', 'T_q_min: 200, T_e_min: 100, job_min: 9.4')
      .replace(
        /list:\n(\s+#.*\n)*(\s+- .*\n)+/,
        'list:\n        - { submit_s: 0, work_s: 600000 }\n        - { submit_s: 10, work_s: 300000 }\n',
      );
    const spec = parseExperiment(text, EXAMPLE).spec;
    const w = await loadWorkload(spec, { specFile: EXAMPLE });
    expect(w.jobs.map((j) => j.run_s)).toEqual([600000, 300000]);
    const plan = planGrid(spec, w.jobs);
    const log: { at: number; to: Address; from: Address; msg: Message }[] = [];
    const rt = new SimRuntime<Message>({ seed: 1, network: spec.network });
    for (const a of plan.actors) rt.spawn({ ...a, actor: new Spy(a.actor, log, a.address) });
    rt.start();
    rt.step(Number.POSITIVE_INFINITY, () => plan.driver.done);
    const work = new Map<string, number>();
    const finishedBy = new Map<string, Map<string, number>>();
    for (const e of log) {
      if (e.msg.type === 'hq.job-submit') work.set(e.msg.jobId, e.msg.work_s);
      if (e.msg.type === 'hq.job-done' && !e.msg.evicted && e.to.endsWith('/queue')) {
        const [task, queue] = e.msg.jobId.split('~') as [string, string];
        const byQueue = finishedBy.get(task) ?? new Map<string, number>();
        finishedBy.set(task, byQueue);
        byQueue.set(queue, (byQueue.get(queue) ?? 0) + work.get(e.msg.jobId)!);
      }
    }
    const moved = plan.driver.records.find((r) => (finishedBy.get(r.job.id)?.size ?? 0) > 1);
    expect(moved, 'a task finished jobs in two queues').toBeDefined();
    expect(moved!.finish_s).toBeDefined();
    const parts = [...finishedBy.get(moved!.job.id)!.values()];
    expect(parts.every((p) => p > 0)).toBe(true);
    expect(parts.reduce((a, b) => a + b, 0)).toBeCloseTo(moved!.job.run_s, 3);
  });
});

describe('one submission machine runs at most submit_limit jobs (§5)', () => {
  /** The most jobs running at once, from the grids' reports to the queues. */
  function peakRunning(text: string): number {
    const spec = parseExperiment(text, EXAMPLE).spec;
    const jobs = [
      { id: 't!1', workload: 't', origin: 'server', submit_s: 0, run_s: 3_600_000, estimate_s: 3_600_000, procs: 0 },
    ];
    const plan = planGrid(spec, jobs);
    const log: { at: number; to: Address; from: Address; msg: Message }[] = [];
    const rt = new SimRuntime<Message>({ seed: 1, network: spec.network });
    for (const a of plan.actors) rt.spawn({ ...a, actor: new Spy(a.actor, log, a.address) });
    rt.start();
    rt.step(Number.POSITIVE_INFINITY, () => plan.driver.done);
    let running = 0;
    let peak = 0;
    for (const e of log) {
      if (!e.to.endsWith('/queue')) continue;
      if (e.msg.type === 'hq.job-started') peak = Math.max(peak, ++running);
      if (e.msg.type === 'hq.job-done') running--;
    }
    return peak;
  }

  it("holds the flat pool's one queue to it, where its grids would offer more", () => {
    const flat = readFileSync(EXAMPLE, 'utf8').replace('scheme: mq-hierarchy', 'scheme: fcfs-flat');
    expect(flat).toContain('submit_limit: 500');
    expect(peakRunning(flat)).toBe(500);
    // Without the limit, the flat pool's 2 + 100 + 500 CPUs all take jobs.
    expect(peakRunning(flat.replace(/\n\s*submit_limit: 500.*\n/, '\n'))).toBe(602);
  });
});

describe("the hierarchy's experiment file", () => {
  it('refuses a source that is not divisible tasks, naming it', () => {
    const text = readFileSync(EXAMPLE, 'utf8').replace(
      /workload:\n(.*\n)*?meta:/,
      'workload:\n  - { site: server, synthetic: { jobs: 10 } }\nmeta:',
    );
    expect(() => parseExperiment(text, EXAMPLE)).toThrow(/workload\[0\]: paper 000's schemes run divisible tasks/);
  });

  it('refuses T_e over T_q, and sharing load across levels', () => {
    const a = readFileSync(EXAMPLE, 'utf8').replace('T_q_min: 6, T_e_min: 3', 'T_q_min: 3, T_e_min: 6');
    expect(() => parseExperiment(a, EXAMPLE)).toThrow(/meta\.queues\[0\]\.T_e_min: must be at most T_q_min/);
    const b = readFileSync(EXAMPLE, 'utf8').replace('share_with: [Q3]', 'share_with: [Q4]');
    expect(() => parseExperiment(b, EXAMPLE)).toThrow(
      /meta\.queues\[1\]\.share_with\[0\]: queue "Q4" is at level 3, not 2/,
    );
  });
});
