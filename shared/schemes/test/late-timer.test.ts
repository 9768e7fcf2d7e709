import { describe, expect, it } from 'vitest';
import { FRESH_TRAIL, type Job } from '@gridemu/model';
import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import { Rng, silentLogger, type Actor, type ActorContext } from '@gridemu/runtime';
import { ExecutorActor } from '../src/paper-001/executor-actor.js';
import { GridActor } from '../src/hierarchy/grid-actor.js';
import { DagSiteActor } from '../src/dag/site-actor.js';
import { Paper001MessageType } from '../src/index.js';

const job = (id: string, run_s: number): Job => ({
  id,
  workload: 's1',
  origin: 's1',
  submit_s: 0,
  run_s,
  estimate_s: run_s,
  procs: 2,
});

/**
 * An actor driven by hand, with the clock rule both runtimes give a delivery: an actor's clock
 * never goes back, so a timer handled after a later delivery reads that delivery's time, not its
 * own due time (live: a busy turn; replayed: the same rule on drawn delays).
 */
function handRun(actor: Actor<Message>, self: Address = 's1/executor') {
  const sent: { to: Address; msg: Message; at: number }[] = [];
  const timers: { due: number; msg: Message }[] = [];
  let clock = 0;
  const ctx: ActorContext<Message> = {
    self,
    location: 's1',
    now: () => clock,
    send: (to, msg) => void sent.push({ to, msg, at: clock }),
    publish: () => {},
    schedule: (delay_s, msg) => timers.push({ due: clock + delay_s, msg }),
    cancel: () => {},
    rng: new Rng(1),
    log: silentLogger,
    metrics: { count: () => {}, set: () => {}, observe: () => {} },
  };
  const deliver = (at: number, msg: Message, from: Address = 'driver') => {
    clock = Math.max(clock, at);
    actor.receive(ctx, msg, from);
  };
  actor.start?.(ctx);
  return { sent, timers, deliver };
}

describe("a job's end when its timer is handled late", () => {
  it("is start + run in paper 001's executor, after a later delivery moved the clock past it", () => {
    const { sent, timers, deliver } = handRun(new ExecutorActor('s1', 4));
    deliver(100, { type: Paper001MessageType.JobStart, job: job('s1!1', 10), trail: FRESH_TRAIL });
    expect(timers.map((t) => t.due)).toEqual([110]);
    // A second job's start is handled at 130, before the first job's end timer (due 110) is.
    deliver(130, { type: Paper001MessageType.JobStart, job: job('s1!2', 50), trail: FRESH_TRAIL });
    deliver(110, timers[0]!.msg);
    const completed = sent.filter((s) => s.msg.type === MessageType.JobCompleted);
    expect(completed).toHaveLength(1);
    expect(completed[0]!.to).toBe(DRIVER);
    // The run ended at 110; recorded at the handler's 130 it would say the job ran 30 s, not 10.
    expect(completed[0]!.msg).toMatchObject({ jobId: 's1!1', time_s: 110 });
    // The scheduler hears of the free processors when the timer is handled: at 130.
    const finished = sent.find((s) => s.msg.type === Paper001MessageType.JobFinished)!;
    expect(finished.at).toBe(130);
  });

  it("is start + run on the hierarchy's grid: the queue is told the CPU time the job used, not the time until it was noticed", () => {
    const pool = {
      cpus: 2,
      N: 2,
      P: 1,
      overhead_s: 0,
      evictions_per_hour: 0,
      cycle_s: 0,
      matches_per_cycle: 0,
      others_share: 0,
      beta: 1,
      preempt: false,
    };
    const { sent, timers, deliver } = handRun(new GridActor('g1', pool, 1e9, 1), 'g1/grid');
    const submit = (jobId: string, work_s: number): Message => ({
      type: 'hq.job-submit',
      jobId,
      work_s,
      priority: 0,
      flock: false,
    });
    deliver(100, submit('t1!0', 10), 'q1/queue');
    deliver(100, timers.find((t) => t.msg.type === 'timer.hq-job-ready')!.msg);
    const ends = timers.filter((t) => t.msg.type === 'timer.hq-job-ends');
    expect(ends.map((t) => t.due)).toEqual([110]);
    // A second submission is handled at 130, before the first job's end timer (due 110) is.
    deliver(130, submit('t1!1', 50), 'q1/queue');
    deliver(110, ends[0]!.msg);
    const done = sent.filter((s) => s.msg.type === 'hq.job-done');
    expect(done).toHaveLength(1);
    expect(done[0]!.to).toBe('q1/queue');
    // It ran 10 s; measured at the handler's 130 it would be 30. The queue hears at 130.
    expect(done[0]!.msg).toMatchObject({ jobId: 't1!0', evicted: false, ran_s: 10 });
    expect(done[0]!.at).toBe(130);
  });

  it("is when its work ran out on a DAG site's shared CR, and the task it shared with speeds up from then", () => {
    const site = new DagSiteActor({
      site: 's1',
      resources: [{ id: 'r1', site: 's1', mips: 1000 }],
      model: 'increasing',
      progress_period_s: 1e9,
      checkpoint_delay_s: [0.5, 0.5],
      checkpoint_bytes: 0,
      scheduler: 'gsched',
      informationService: 'is',
      checkpointServer: 'cs',
    });
    const { sent, timers, deliver } = handRun(site, 's1/site');
    const run = (j: Job): Message => ({
      type: 'dag.run',
      job: j,
      resource: 'r1',
      done_mi: 0,
      delay_s: 0,
      initial: false,
      first: true,
      migrations: 0,
    });
    // Two tasks of 10 s and 30 s at 1000 MIPS start together at 100 and share the CR: the first ends at 120.
    deliver(100, run(job('d!1', 10)), 'gsched');
    deliver(100, run(job('d!2', 30)), 'gsched');
    for (const t of timers.filter((t) => t.msg.type === 'timer.dag-begin')) deliver(100, t.msg);
    const armed = () => timers.filter((t) => t.msg.type === 'timer.dag-resource').at(-1)!;
    expect(armed().due).toBe(120);
    // The CR's timer is handled at 135, late.
    deliver(135, armed().msg);
    const completed = () => sent.filter((s) => s.msg.type === MessageType.JobCompleted).map((s) => s.msg);
    expect(completed()).toEqual([expect.objectContaining({ jobId: 'd!1', time_s: 120 })]);
    // d!2 had 20 s of work left at 120 and has the CR to itself from then: it ends at 140, not 135 + 20.
    expect(armed().due).toBe(140);
    deliver(140, armed().msg);
    expect(completed()).toEqual([
      expect.objectContaining({ jobId: 'd!1', time_s: 120 }),
      expect.objectContaining({ jobId: 'd!2', time_s: 140 }),
    ]);
  });
});
