import { describe, expect, it } from 'vitest';
import { FRESH_TRAIL, type Job } from '@gridemu/model';
import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import { Rng, silentLogger, type ActorContext } from '@gridemu/runtime';
import { ExecutorActor } from '../src/paper-001/executor-actor.js';
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
 * The executor driven by hand, with the clock rule both runtimes give a delivery: an actor's
 * clock never goes back, so a timer handled after a later delivery reads that delivery's time,
 * not its own due time (live: a busy turn; replayed: the same rule on drawn delays).
 */
function handRun() {
  const sent: { to: Address; msg: Message; at: number }[] = [];
  const timers: { due: number; msg: Message }[] = [];
  let clock = 0;
  const ctx: ActorContext<Message> = {
    self: 's1/executor',
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
  const executor = new ExecutorActor('s1', 4);
  const deliver = (at: number, msg: Message) => {
    clock = Math.max(clock, at);
    executor.receive(ctx, msg);
  };
  return { sent, timers, deliver };
}

describe("the executor's record of a job's end", () => {
  it('is start + run when its timer is handled late, after a later delivery moved the clock past it', () => {
    const { sent, timers, deliver } = handRun();
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
});
