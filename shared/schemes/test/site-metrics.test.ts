import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '@gridemu/metrics';
import { runEpoch_s, type ExperimentSpec } from '@gridemu/model';
import type { Address, Message } from '@gridemu/protocol';
import { SimRuntime, type Actor, type ActorContext, type MetricsSink } from '@gridemu/runtime';
import { loadExperimentWorkload, parseExperiment, planGrid, simulate } from '../src/index.js';
import type { SiteState } from '../src/site-metrics.js';
import { simFaults } from '../src/simulate.js';

const EXAMPLES = resolve(fileURLToPath(import.meta.url), '../../../../examples');

interface Report extends SiteState {
  readonly at: number;
}

/** Hands its actor a context whose gauges are recorded (a simulation keeps none). */
class GaugeSpy implements Actor<Message> {
  readonly reports: Report[] = [];
  private readonly gauges = new Map<string, number>();

  constructor(private readonly inner: Actor<Message>) {}

  start(ctx: ActorContext<Message>): void {
    this.inner.start?.(this.wrap(ctx));
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    this.inner.receive(this.wrap(ctx), msg, from);
    this.record(ctx.now());
  }

  private record(at: number): void {
    if (!this.gauges.has('processors.total')) return; // not a site's actor (the driver has gauges of its own)
    const g = (name: string) => this.gauges.get(name) ?? Number.NaN;
    this.reports.push({
      at,
      queued: g('jobs.queued'),
      running: g('jobs.running'),
      busy: g('processors.busy'),
      total: g('processors.total'),
    });
  }

  recover(ctx: ActorContext<Message>, crashed_s: number): void {
    this.inner.recover?.(this.wrap(ctx), crashed_s);
    this.record(ctx.now());
  }

  private wrap(ctx: ActorContext<Message>): ActorContext<Message> {
    const metrics: MetricsSink = {
      count: (name, by) => ctx.metrics.count(name, by),
      set: (name, value) => void this.gauges.set(name, value),
      observe: (name, value) => ctx.metrics.observe(name, value),
    };
    return new Proxy(ctx, {
      get: (target, key) => {
        if (key === 'metrics') return metrics;
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }
}

/** Runs the spec in the simulator as simulate() does, every actor spied on: the gauges each site's actors reported, and the jobs. */
async function gauges(spec: ExperimentSpec, file: string) {
  const { jobs } = await loadExperimentWorkload(spec, { specFile: file });
  const plan = planGrid(spec, jobs);
  const rt = new SimRuntime<Message>({ seed: spec.seed, network: spec.network, faults: simFaults(spec) });
  const spies = new Map<Address, { location: string | undefined; spy: GaugeSpy }>();
  for (const a of plan.actors) {
    const spy = new GaugeSpy(a.actor);
    spies.set(a.address, { location: a.location, spy });
    rt.spawn({ ...a, actor: spy });
  }
  rt.start(runEpoch_s(jobs));
  rt.step(Number.POSITIVE_INFINITY, () => plan.driver.done);
  const bySite = new Map<string, Report[]>();
  for (const { location, spy } of spies.values())
    if (spy.reports.length > 0) bySite.set(location!, [...(bySite.get(location!) ?? []), ...spy.reports]);
  return { bySite, records: plan.driver.records };
}

const example = (name: string, edit: (text: string) => string = (t) => t) => {
  const file = resolve(EXAMPLES, name);
  return { file, spec: parseExperiment(edit(readFileSync(file, 'utf8')), file).spec };
};

/** Processors the jobs held at each site at `t`, from their records. */
function busyAt(records: readonly JobRecord[], site: string, t: number): number {
  let busy = 0;
  for (const r of records)
    if (
      r.execSite === site &&
      r.start_s !== undefined &&
      r.start_s <= t &&
      (r.finish_s === undefined || t < r.finish_s)
    )
      busy += r.job.procs;
  return busy;
}

/** The last report at each emulated time: the site's state once it handled everything then. */
function lastAtEachTime(reports: readonly Report[]): Report[] {
  const byTime = new Map<number, Report>();
  for (const r of reports) byTime.set(r.at, r);
  return [...byTime.values()];
}

const FAMILIES: { family: string; load: () => { file: string; spec: ExperimentSpec }; fromJobs: boolean }[] = [
  {
    // Independent: a site's processors are its jobs' (under k-distributed a claim holds some too).
    family: 'paper 001 (independent)',
    load: () => example('quickstart.yaml', (t) => t.replace(/jobs: 2000/g, 'jobs: 300')),
    fromJobs: true,
  },
  {
    family: 'paper 004 (shadow)',
    load: () => ({
      file: '/tmp/shadow-gauges.yaml',
      spec: parseExperiment(
        [
          'name: shadow-gauges',
          'seed: 3',
          'sites: [{ id: a, cpus: 2 }, { id: b, cpus: 2 }, { id: c, cpus: 4 }]',
          'workload: [{ site: a, synthetic: { jobs: 200, uhi: 1 } }]',
          'meta: { scheme: shadow, speeds: [1, 2, 4] }',
        ].join('\n'),
        '/tmp/shadow-gauges.yaml',
      ).spec,
    }),
    fromJobs: true,
  },
  { family: 'paper 002 (GRUBER)', load: () => example('gruber-live.yaml'), fromJobs: false },
  {
    family: 'paper 003 (dag-adaptive)',
    load: () => example('dag-tornado.yaml', (t) => t.replace('jobs: 120', 'jobs: 12')),
    fromJobs: false,
  },
  { family: 'paper 000 (mq-hierarchy)', load: () => example('hierarchy-table1.yaml'), fromJobs: false },
];

describe("each family's sites report what the Grafana dashboard shows: their state as gauges, their jobs' starts and ends", () => {
  for (const { family, load, fromJobs } of FAMILIES) {
    it(`${family}: every site, busy within its CPUs, ${fromJobs ? "busy as its jobs' records say, " : ''}idle at the end`, async () => {
      const { file, spec } = load();
      const { bySite, records } = await gauges(spec, file);
      expect([...bySite.keys()].sort()).toEqual(spec.sites.map((s) => s.id).sort());
      let busiest = 0;
      for (const site of spec.sites) {
        const reports = bySite.get(site.id)!;
        for (const r of reports) {
          expect(r.total, site.id).toBe(site.cpus);
          expect(r.busy, `${site.id} at ${r.at}`).toBeGreaterThanOrEqual(0);
          expect(r.busy, `${site.id} at ${r.at}`).toBeLessThanOrEqual(r.total);
          expect(r.running, `${site.id} at ${r.at}`).toBeGreaterThanOrEqual(0);
          expect(r.queued, `${site.id} at ${r.at}`).toBeGreaterThanOrEqual(0);
          busiest = Math.max(busiest, r.busy);
        }
        if (fromJobs)
          for (const r of lastAtEachTime(reports))
            expect(r.busy, `${site.id} at ${r.at}`).toBe(busyAt(records, site.id, r.at));
        const last = reports.at(-1)!;
        expect({ site: site.id, ...last, at: 0 }).toEqual({
          site: site.id,
          at: 0,
          queued: 0,
          running: 0,
          busy: 0,
          total: site.cpus,
        });
      }
      expect(busiest).toBeGreaterThan(0);
    });

    it(`${family}: jobs started and completed, counted where they ran, as the jobs' records say`, async () => {
      const { file, spec } = load();
      const { jobs } = await loadExperimentWorkload(spec, { specFile: file });
      const r = simulate(spec, jobs);
      const completed = r.records.filter((x) => x.finish_s !== undefined && x.failReason === undefined).length;
      expect(completed).toBeGreaterThan(0);
      expect(r.counters['jobs.completed']).toBe(completed);
      // A run lost and started again counts twice; none is lost here.
      expect(r.counters['jobs.started']).toBeGreaterThanOrEqual(
        r.records.filter((x) => x.start_s !== undefined).length,
      );
    });
  }

  it('says at once what a restart changed: a crashed grid comes back with none of its jobs running', async () => {
    // Table 1's long task runs on Madison's 500 CPUs; Madison's process dies 2 h in and is back
    // 10 min later. Its running jobs died with it (evicted, their queue submits them again): the
    // gauges say so from the restart, not from the next message.
    const { file, spec } = example('hierarchy-table1.yaml', (t) =>
      t.replace('meta:', 'faults: { crash: [{ process: madison, at_s: 7200, down_s: 600 }] }\nmeta:'),
    );
    const { bySite } = await gauges(spec, file);
    const madison = bySite.get('madison')!;
    const before = madison.filter((r) => r.at < 7200).at(-1)!;
    expect(before.busy).toBeGreaterThan(0);
    const restart = madison.find((r) => r.at === 7800)!;
    // The first report at the restart is the restart's own, before anything held for it arrives.
    expect(restart).toMatchObject({ running: 0, busy: 0 });
  });
});
