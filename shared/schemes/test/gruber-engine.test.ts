import { describe, expect, it } from 'vitest';
import type { Address, Message } from '@gridemu/protocol';
import type { ActorContext } from '@gridemu/runtime';
import { parseOverrides, type ExperimentSpec } from '@gridemu/model';
import { parseExperiment } from '../src/index.js';
import { gruberMeta } from '../src/gruber/index.js';
import { EngineActor } from '../src/gruber/engine-actor.js';

// Two sites of 10 CPUs; ivdgl may hold up to 80% of each, extensible.
const SPEC = `
name: e
seed: 1
sites:
  - { id: a, cpus: 10 }
  - { id: b, cpus: 10 }
workload:
  - { name: blast, blast: { vo: ivdgl, submitters: 1, jobs: 10 } }
meta:
  scheme: gruber
  selector: G-LU
  vos: { ivdgl: {} }
  site_policy:
    "*": { ivdgl: { cpu: 50, burst: 80 } }
`;

function spec(sets: string[]): ExperimentSpec {
  return parseExperiment(SPEC, '/tmp/e.yaml', parseOverrides(sets)).spec;
}

/** The engine driven by hand: each call at its own emulated time; returns what it answered. */
function engine(reconcile: boolean) {
  const s = spec([`meta.reconcile=${reconcile}`]);
  const actor = new EngineActor(1, s.sites, gruberMeta(s));
  let now = 0;
  const answers: Message[] = [];
  const ctx = {
    now: () => now,
    send: (_to: Address, m: Message) => answers.push(m),
    publish: () => undefined,
    metrics: { count: () => undefined, observe: () => undefined },
    log: { warn: () => undefined },
  } as unknown as ActorContext<Message>;
  const at = (t: number, m: Message) => {
    now = t;
    actor.receive(ctx, m, 'host');
  };
  const report = (t: number, site: string, running: number) =>
    at(t, {
      type: 'gruber.usage',
      site,
      time_s: t,
      cpus: 10,
      free_cpus: 10 - running,
      vos: [{ vo: 'ivdgl', running_cpus: running, queued_cpus: 0, queued_jobs: 0, epoch_cpu_s: 0, disk_mb: 0 }],
    });
  const used = (t: number) => {
    at(t, { type: 'gruber.query', queryId: t, jobId: 'j', vo: 'ivdgl', cpus: 1, disk_mb: 0, exclude: [] });
    const a = answers.at(-1) as Extract<Message, { type: 'gruber.available' }>;
    return Object.fromEntries(a.sites.map((site, i) => [site, a.used[i]]));
  };
  const sendTo = (t: number, site: string) => at(t, { type: 'gruber.chosen', site, vo: 'ivdgl', cpus: 1, disk_mb: 0 });
  return { report, used, sendTo };
}

describe("GRUBER's engine reconciles what it sent a site with what the site reports (§4.2.4)", () => {
  it('charges a site that reports idle CPUs for the jobs sent to it within the re-plan timeout', () => {
    for (const reconcile of [false, true]) {
      const e = engine(reconcile);
      // a and b report 2 busy CPUs at 0; four jobs go to a at 10-40 s, one to b at 50 s.
      e.report(0, 'a', 2);
      e.report(0, 'b', 2);
      for (const t of [10, 20, 30, 40]) e.sendTo(t, 'a');
      e.sendTo(50, 'b');
      // Before the next report both engines count the dispatches: a 6 of 10, b 3 of 10.
      expect(e.used(60)).toEqual({ a: 0.6, b: 0.3 });
      // At 120 s a reports 2 busy CPUs again: the four jobs are gone (they failed at once); b reports its job.
      e.report(120, 'a', 2);
      e.report(120, 'b', 3);
      // Without reconciling, a looks as idle as before; with it, a's use is the larger of what it
      // reports (2 CPUs) and what was sent to it within the last 1200 s (4): 4 of 10.
      expect(e.used(130)).toEqual(reconcile ? { a: 0.4, b: 0.3 } : { a: 0.2, b: 0.3 });
      // 1200 s after they were sent, the submit host would have re-planned them: no longer charged.
      e.report(1240, 'a', 2);
      expect(e.used(1241)).toEqual({ a: 0.2, b: 0.3 });
    }
  });

  it('leaves alone a site whose report shows what was sent to it', () => {
    const e = engine(true);
    e.report(0, 'a', 0);
    e.report(0, 'b', 0);
    for (const t of [10, 20, 30]) e.sendTo(t, 'a');
    // The three run there: the report shows them, and nothing is added.
    e.report(120, 'a', 3);
    expect(e.used(130)).toEqual({ a: 0.3, b: 0 });
  });
});
