import { describe, expect, it } from 'vitest';
import { DriverActor } from '@gridemu/actors';
import type { Job } from '@gridemu/model';
import { DRIVER, type Address, type Message } from '@gridemu/protocol';
import { Rng, SimRuntime, type Actor, type ActorContext } from '@gridemu/runtime';
import { SiteSelector, lrmAddress, engineAddress, submitHostAddress } from '../src/gruber/index.js';
import { SubmitHostActor } from '../src/gruber/submit-host-actor.js';

/**
 * The submit host's protocol against scripted neighbours: an engine that offers what the test
 * says, and resource managers that start, starve or fail what they are sent. Every time and
 * outcome below is worked out by hand.
 */
/** `end-first`: starts it, and its report of the end reaches the host before the start's. */
type Behaviour = 'start' | 'starve' | 'fail' | 'end-first';

class ScriptedEngine implements Actor<Message> {
  readonly queries: { exclude: readonly string[] }[] = [];
  constructor(private readonly answers: string[][]) {}
  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    if (msg.type !== 'gruber.query') return;
    this.queries.push({ exclude: msg.exclude });
    const sites = this.answers[Math.min(this.queries.length - 1, this.answers.length - 1)]!;
    ctx.send(from, { type: 'gruber.available', queryId: msg.queryId, sites, used: sites.map(() => 0) });
  }
}

class ScriptedLrm implements Actor<Message> {
  readonly received: { attempt: number; at: number }[] = [];
  constructor(
    private readonly site: string,
    private readonly behaviour: Behaviour,
  ) {}
  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    const now = ctx.now();
    if (msg.type === 'gruber.submit') {
      this.received.push({ attempt: msg.attempt, at: now });
      const base = { jobId: msg.job.id, attempt: msg.attempt, site: this.site, time_s: now };
      if (this.behaviour === 'fail') ctx.send(from, { type: 'gruber.failed', ...base, category: 'gram' });
      if (this.behaviour === 'start') {
        ctx.send(from, { type: 'gruber.started', ...base, queued_s: now, resources: '0' });
        ctx.send(from, { type: 'gruber.ended', ...base, time_s: now + msg.job.run_s });
      }
      if (this.behaviour === 'end-first') {
        ctx.send(from, { type: 'gruber.ended', ...base, time_s: now + msg.job.run_s });
        ctx.send(from, { type: 'gruber.started', ...base, queued_s: now, resources: '0' });
      }
    }
    if (msg.type === 'gruber.withdraw')
      ctx.send(from, { type: 'gruber.withdrawn', jobId: msg.jobId, attempt: msg.attempt });
  }
}

const job: Job = {
  id: 'b!1',
  workload: 'b',
  origin: 'a',
  submit_s: 0,
  run_s: 100,
  estimate_s: 100,
  procs: 1,
  vo: 'ivdgl',
  group: 'g',
};

function run(lrms: Record<string, Behaviour>, answers: string[][], retries = 10, latency_ms = 0) {
  const rt = new SimRuntime<Message>({ seed: 1, network: { latency_ms, jitter_ms: 0 } });
  const driver = new DriverActor([job], () => submitHostAddress(1));
  const engine = new ScriptedEngine(answers);
  const sites = Object.keys(lrms);
  const host = new SubmitHostActor(new SiteSelector('G-RR', sites, new Rng(1)), {
    group: 'g',
    cap: 10,
    engine: engineAddress(1),
    sites,
    offerable: () => sites,
    starvation_timeout_s: 1200,
    retries,
    retry_wait_s: 60,
    query_timeout_s: 30,
  });
  const scripted = Object.fromEntries(sites.map((s) => [s, new ScriptedLrm(s, lrms[s]!)]));
  rt.spawn({ address: DRIVER, location: undefined, actor: driver });
  rt.spawn({ address: submitHostAddress(1), location: 'submit', actor: host });
  rt.spawn({ address: engineAddress(1), location: 'gruber', actor: engine });
  for (const s of sites) rt.spawn({ address: lrmAddress(s), location: s, actor: scripted[s]! });
  rt.start();
  rt.step(10_000, () => driver.done);
  return { record: driver.records[0]!, engine, lrms: scripted };
}

describe('GRUBER submit host: re-planning and failures (paper 002 §3.2, §4.2.4)', () => {
  it('withdraws a job that has not started at the starvation timeout, and plans it again', () => {
    const { record, lrms, engine } = run({ a: 'starve', b: 'start' }, [['a'], ['a', 'b']]);
    // Sent to a at 0; at 1200 it is withdrawn, re-planned, and round robin moves on to b.
    expect(lrms['a']!.received).toEqual([{ attempt: 1, at: 0 }]);
    expect(lrms['b']!.received).toEqual([{ attempt: 2, at: 1200 }]);
    expect(record).toMatchObject({ start_s: 1200, finish_s: 1300, execSite: 'b', replans: 1 });
    // Starving there was a failure at a (§4.2.4): the job is not sent back.
    expect(engine.queries.map((q) => q.exclude)).toEqual([[], ['a']]);
  });

  it('never sends a job back to a site it failed at', () => {
    const { record, lrms, engine } = run({ a: 'fail', b: 'start' }, [
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(lrms['a']!.received).toHaveLength(1);
    expect(engine.queries.map((q) => q.exclude)).toEqual([[], ['a']]);
    // The engine offered a again; the submit host still left it out.
    expect(record).toMatchObject({ start_s: 0, execSite: 'b', replans: 1 });
  });

  it('fails the job after the retry limit, with the reason', () => {
    const { record } = run({ a: 'fail', b: 'fail', c: 'fail', d: 'fail' }, [['a', 'b', 'c', 'd']], 3);
    expect(record).toMatchObject({ failReason: 'retry_limit:gram', replans: 2, failed_s: 0 });
    expect(record.start_s).toBeUndefined();
  });

  it('fails the job when no site is left to try', () => {
    const { record } = run({ a: 'fail', b: 'fail' }, [['a', 'b']], 10);
    expect(record).toMatchObject({ failReason: 'no_site_left:gram', replans: 2 });
  });

  it('uses a late answer to a query that timed out', () => {
    // 100 s links: the first answer comes back at 200, after the 30 s query timeout has re-asked at
    // 30 and, the wait doubled, at 90 (the next would be at 210); it is used, the job reaches a at
    // 300 and runs to 400.
    const { record, engine } = run({ a: 'start' }, [['a']], 10, 100_000);
    expect(engine.queries).toHaveLength(3);
    expect(record).toMatchObject({ start_s: 300, finish_s: 400, execSite: 'a', replans: 0 });
  });

  it('asks a decision point that does not answer less and less often, down to one ask per 64 timeouts', () => {
    // 10,000 s links: the first answer comes back at 20,000. The waits double from 30 s to 1,920 s
    // (64 × 30), so it asks at 0, 30, 90, 210, 450, 930, 1,890, 3,810 and then every 1,920 s to
    // 19,170: 16 queries, where a fixed 30 s timeout asked 667. The job reaches a at 30,000.
    const { record, engine } = run({ a: 'start' }, [['a']], 10, 10_000_000);
    expect(engine.queries).toHaveLength(16);
    expect(record).toMatchObject({ start_s: 30_000, finish_s: 30_100, execSite: 'a', replans: 0 });
  });

  it('completes a job whose end is heard before its start (durable reports are resent, not ordered)', () => {
    // Fuzz seed 4633: both reports held while the host was down, the end delivered first; the
    // host dropped it and waited for ever on a job that had run.
    const { record, lrms } = run({ a: 'end-first' }, [['a']]);
    expect(lrms['a']!.received).toEqual([{ attempt: 1, at: 0 }]);
    expect(record).toMatchObject({ start_s: 0, finish_s: 100, execSite: 'a', replans: 0 });
  });

  it('waits and asks again while no site is available', () => {
    const { record } = run({ a: 'start' }, [[], [], ['a']]);
    expect(record).toMatchObject({ start_s: 120, replans: 0 });
  });
});
