import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { DRIVER, FRESH_TRAIL, MessageType, type Message } from '@gridemu/protocol';
import { SimRuntime, type Actor, type ActorContext } from '@gridemu/runtime';
import { DriverActor } from '../src/index.js';

/**
 * The driver keeps one record per job from reports that may come in any order: a durable report
 * is resent until acknowledged, so a start published just before a crash can arrive after the
 * restarted site says that run was lost.
 */
const job: Job = { id: 'j', workload: 'w', origin: 's1', submit_s: 0, run_s: 100, estimate_s: 100, procs: 1 };

const started = (site: string, time_s: number): Message => ({
  type: MessageType.JobStarted,
  jobId: 'j',
  site,
  time_s,
  resources: '0',
  trail: FRESH_TRAIL,
});
const lost = (site: string, started_s: number, time_s: number): Message => ({
  type: MessageType.JobLost,
  jobId: 'j',
  site,
  started_s,
  time_s,
});
const completed = (site: string, time_s: number): Message => ({
  type: MessageType.JobCompleted,
  jobId: 'j',
  site,
  time_s,
});

/** Sends the driver the scripted reports, in this order, once the job is submitted to it. */
class ScriptedSite implements Actor<Message> {
  constructor(private readonly reports: readonly Message[]) {}
  receive(ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type !== MessageType.JobSubmit) return;
    for (const r of this.reports) ctx.send(DRIVER, r);
  }
}

function recordAfter(reports: readonly Message[]) {
  const rt = new SimRuntime<Message>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
  const driver = new DriverActor([job], () => 'site/meta');
  rt.spawn({ address: DRIVER, location: undefined, actor: driver });
  rt.spawn({ address: 'site/meta', location: 's1', actor: new ScriptedSite(reports) });
  rt.start();
  rt.step(1_000); // every report, even one after the job's outcome
  return driver.records[0]!;
}

describe('the driver: reports out of order (issue 11)', () => {
  it('a lost run reported after its start: forgotten, the next run is the job’s', () => {
    const r = recordAfter([started('s1', 10), lost('s1', 10, 50), started('s2', 60), completed('s2', 160)]);
    expect(r).toMatchObject({
      execSite: 's2',
      start_s: 60,
      finish_s: 160,
      lostRuns: [{ site: 's1', start_s: 10, end_s: 50 }],
    });
  });

  it('a lost run reported before its start: the late start is skipped', () => {
    const r = recordAfter([lost('s1', 10, 50), started('s1', 10), started('s1', 70), completed('s1', 170)]);
    expect(r).toMatchObject({
      execSite: 's1',
      start_s: 70,
      finish_s: 170,
      lostRuns: [{ site: 's1', start_s: 10, end_s: 50 }],
    });
  });

  it('a lost run’s start arriving after the next run’s: skipped, the next run stays', () => {
    const r = recordAfter([lost('s1', 10, 50), started('s2', 60), started('s1', 10), completed('s2', 160)]);
    expect(r).toMatchObject({
      execSite: 's2',
      start_s: 60,
      finish_s: 160,
      lostRuns: [{ site: 's1', start_s: 10, end_s: 50 }],
    });
  });

  it('takes the trail a completion carries: moves made while the job ran (paper 003)', () => {
    const done: Message = {
      type: MessageType.JobCompleted,
      jobId: 'j',
      site: 's1',
      time_s: 110,
      trail: { copies: 1, migrations: 2, replans: 0 },
    };
    expect(recordAfter([started('s1', 10), done])).toMatchObject({
      execSite: 's1',
      start_s: 10,
      finish_s: 110,
      migrations: 2,
    });
    expect(recordAfter([started('s1', 10), completed('s1', 110)])).toMatchObject({ migrations: 0 });
  });

  it('still refuses a job started twice, and a run lost after it finished', () => {
    expect(() => recordAfter([started('s1', 10), started('s2', 20)])).toThrow(/j started twice \(at s1 and s2\)/);
    expect(() => recordAfter([started('s1', 10), completed('s1', 110), lost('s1', 10, 120)])).toThrow(
      /j lost at s1 after it finished there/,
    );
  });
});
