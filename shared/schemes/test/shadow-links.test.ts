import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { DRIVER, type Address, type Message } from '@gridemu/protocol';
import { SimRuntime, type Actor, type ActorContext } from '@gridemu/runtime';
import { resourceAddress, ROUTER } from '../src/shadow/names.js';
import { OutPort } from '../src/shadow/link-port.js';
import { ResourceActor } from '../src/shadow/resource-actor.js';
import { taskData } from '../src/shadow/task-data.js';

/**
 * Paper 004's links, hand-checked: 8 Mbps, so 1 MB takes 1 s and a 1000-byte state message 1 ms.
 * A scripted scheduler sends a task and a query; it records when each reply arrives (no latency).
 */
class ScriptedScheduler implements Actor<Message> {
  readonly arrived: { type: string; at: number }[] = [];
  constructor(private readonly job: Job) {}
  start(ctx: ActorContext<Message>): void {
    ctx.send(resourceAddress('r1'), { type: 'sr.task', job: this.job, Lhat: this.job.run_s });
    // The query comes half a second after the task ends, while its 2 MB output is on the link.
    ctx.schedule(10.5, { type: 'timer.sr-decide', round: 1 });
  }
  receive(ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type === 'timer.sr-decide')
      ctx.send(resourceAddress('r1'), { type: 'sr.query', queryId: 1, kind: 'queue', Lhat: 1 });
    else this.arrived.push({ type: msg.type, at: ctx.now() });
  }
}

class Sink implements Actor<Message> {
  receive(): void {}
}

const job: Job = { id: 't!1', workload: 't', origin: 'r1', submit_s: 0, run_s: 10, estimate_s: 10, procs: 1 };

describe("paper 004's links: data and state wait for each other", () => {
  it("an answer leaves the resource's link only after the output already on it", () => {
    const rt = new SimRuntime<Message>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
    const scheduler = new ScriptedScheduler(job);
    const data = { input_bytes: 0, output_bytes: 2e6, spread: 0 };
    rt.spawn({ address: DRIVER, location: undefined, actor: new Sink() });
    rt.spawn({ address: ROUTER as Address, location: 'router', actor: scheduler });
    rt.spawn({
      address: resourceAddress('r1'),
      location: 'r1',
      actor: new ResourceActor('r1', 1, 1, 1, { link_mbps: 8, state_message_bytes: 1000, data, seed: 1 }),
    });
    rt.start();
    rt.step(1000, () => scheduler.arrived.length >= 2);
    // The task runs 0-10; its 2 MB output holds the link 10-12; the answer, asked at 10.5, follows: 12.001.
    expect(scheduler.arrived).toEqual([
      { type: 'sr.output', at: 12 },
      { type: 'sr.answer', at: expect.closeTo(12.001, 9) },
    ]);
  });

  it('a link with two transfers queued delivers the second after the first', () => {
    // Two 1 MB messages handed to an 8 Mbps port at 0 and 0.2: through at 1 and 2 (not 1.2).
    const rt = new SimRuntime<Message>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
    const got: { at: number; id: string }[] = [];
    const port = new OutPort(8);
    rt.spawn({
      address: 'a/sender',
      location: 'a',
      actor: {
        start(ctx: ActorContext<Message>) {
          port.send(ctx, 'b/sink', { type: 'sr.output', jobId: 'first', site: 'a', bytes: 1e6, ended_s: 0 }, 1e6);
          ctx.schedule(0.2, { type: 'timer.sr-decide', round: 1 });
        },
        receive(ctx: ActorContext<Message>, msg: Message) {
          if (msg.type === 'timer.sr-send') port.sent(ctx, msg.slot);
          if (msg.type === 'timer.sr-decide')
            port.send(ctx, 'b/sink', { type: 'sr.output', jobId: 'second', site: 'a', bytes: 1e6, ended_s: 0 }, 1e6);
        },
      },
    });
    rt.spawn({
      address: 'b/sink',
      location: 'b',
      actor: {
        receive(ctx: ActorContext<Message>, msg: Message) {
          if (msg.type === 'sr.output') got.push({ at: ctx.now(), id: msg.jobId });
        },
      },
    });
    rt.start();
    rt.step(100, () => got.length >= 2);
    expect(got).toEqual([
      { at: 1, id: 'first' },
      { at: 2, id: 'second' },
    ]);
  });

  it("a task's sizes are its means times a factor in [1 - spread, 1 + spread], the same for every router", () => {
    const spec = { input_bytes: 1e6, output_bytes: 4e6, spread: 0.5 };
    const sizes = Array.from({ length: 2000 }, (_, i) => taskData(spec, `t!${i}`, 7));
    expect(sizes.every((s) => s.input >= 0.5e6 && s.input <= 1.5e6 && s.output >= 2e6 && s.output <= 6e6)).toBe(true);
    const meanOut = sizes.reduce((a, s) => a + s.output, 0) / sizes.length;
    expect(meanOut).toBeGreaterThan(3.9e6);
    expect(meanOut).toBeLessThan(4.1e6);
    expect(taskData(spec, 't!5', 7)).toEqual(sizes[5]);
    expect(taskData({ ...spec, spread: 0 }, 't!5', 7)).toEqual({ input: 1e6, output: 4e6 });
  });
});
