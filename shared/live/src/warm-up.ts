import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { DEFAULT_WARM_UP_JOBS, type ExperimentSpec, type Job } from '@gridemu/model';
import { MESSAGE_CHECK, META_SCHEMES, planGrid, schemeSkipsWarmUp } from '@gridemu/schemes';
import { silentLogger, type Logger } from '@gridemu/runtime';
import { FileJournal, LiveRuntime, type Journal } from '@gridemu/runtime/live';
import { NatsTransport } from '@gridemu/transport-nats';
import { reliableDelivery } from './reliable-delivery.js';

/** What one process's warm-up did, for its log and its report. */
export interface WarmUpReport {
  readonly jobs: number;
  readonly finished: number;
  readonly wall_ms: number;
  /** Why it stopped short, if it threw (it never stops the run: it only costs the gain). */
  readonly error?: string;
  /** Why it did not run. */
  readonly skipped?: string;
  /** Appends its journals made (0: the run keeps none). */
  readonly journal_appends?: number;
  /** Acknowledgements of durable messages its runtimes sent (0: the run sends none). */
  readonly acks_sent?: number;
}

/**
 * The journal this process keeps in the run (member.ts): in local files, or in a store over the
 * network (JetStream). Its warm-up keeps one of the same kind, so that the code a journaled run
 * spends its time in is compiled before the epoch too.
 */
export type WarmUpJournal = 'file' | 'network';

/** The warm-up runs at this speed-up: its jobs, 20 emulated s apart, are all submitted within about 0.1 s of wall time. */
const WARM_UP_SPEEDUP = 20_000;
const SUBMIT_SPACING_S = 20;

/** A warm-up stops here, finished or not: with many processes on few cores it can take seconds. */
const WARM_UP_BUDGET_MS = 5000;

export interface WarmUpOptions {
  /** Jobs at each site this process hosts (warmUpJobs); default the spec's live.warm_up_jobs. */
  readonly perSite?: number;
  /** Wall ms after which it stops, finished or not; default 5 s. */
  readonly budget_ms?: number;
  /** The journal this process keeps in the run, if any (WarmUpJournal). */
  readonly journal?: WarmUpJournal;
  /** Where a file journal's scratch folder goes (removed afterwards); default the system's temporary folder. */
  readonly scratch_dir?: string;
}

/**
 * The run id of a process's warm-up: a namespace of its own beside the run's, so that nothing it
 * sends reaches the run, and so that a run with credentials can let each process use it
 * (run-credentials.ts). `location` undefined: the driver's.
 */
export function warmUpRun(run: string, location: string | undefined): string {
  return `${run}-warm-${location ?? 'driver'}`;
}

/**
 * Runs a small throwaway grid of the spec before the run's clock starts, so that the code a live
 * run spends its time in (the NATS client, msgpack, message checks, the runtime's turns, the
 * actors and the scheduling pass) is compiled by V8 before the epoch, not during the first
 * emulated hours. Without it, each of a run's processes spends its first second or more of CPU
 * compiling (about 170 TurboFan compilations in a site process), which shows as lag in
 * the run's early jobs and wastes claims that time out while it lasts.
 *
 * The grid is the spec's own plan on a few hundred small jobs (warmUpJobs). This process's actors
 * run in one runtime and all the others in a second, both on the process's NATS connection under
 * `warmUpRun`, so its own actors' messages cross nats-server as they will in the run. Logs go
 * nowhere and no metric is recorded. It stops at its time budget whether or not every job finished.
 *
 * Both runtimes deliver as the run's do: durable messages numbered, kept, acknowledged and resent
 * where the spec asks for that (reliableDelivery), and this process's actors journaled where it
 * keeps a journal (`options.journal`: a file journal in a scratch folder, removed afterwards, or a
 * store answering a loop pass later, as JetStream does, storing nothing); the other runtime's
 * actors, where the run journals every process, through a store that stores nothing, so that
 * their receipts and acknowledgements reach this one's. A warm-up without them left a journaled
 * run's own code (the writer, the journal's encoding, the outbox, the acknowledgements) to be
 * compiled during the run: 187 TurboFan compilations from 5 s into a site process's life in a
 * 40,000-job run, against 113 without a journal (docs/performance.md). Most of a run's code is
 * compiled during the run all the same: its few hundred jobs make few functions hot enough.
 */
export async function warmUp(
  nc: NatsConnection,
  run: string,
  location: string | undefined,
  spec: ExperimentSpec,
  options: WarmUpOptions = {},
): Promise<WarmUpReport> {
  const started = performance.now();
  const perSite = options.perSite ?? spec.live.warm_up_jobs ?? DEFAULT_WARM_UP_JOBS;
  if (perSite === 0) return { jobs: 0, finished: 0, wall_ms: 0, skipped: 'live.warm_up_jobs is 0' };
  // A scheme that takes no plain jobs (DAG workflows, paper 003) would not run these; it goes cold.
  if (!META_SCHEMES.sourceKinds(spec.meta.scheme).includes('synthetic'))
    return { jobs: 0, finished: 0, wall_ms: 0, skipped: `scheme ${spec.meta.scheme} takes no plain jobs` };
  const cold = schemeSkipsWarmUp(spec.meta.scheme);
  if (cold) return { jobs: 0, finished: 0, wall_ms: 0, skipped: `scheme ${spec.meta.scheme}: ${cold}` };
  const wall_ms = () => Math.round(performance.now() - started);
  let plan;
  try {
    plan = planGrid(spec, warmUpJobs(spec, location, perSite));
  } catch (err) {
    return { jobs: 0, finished: 0, wall_ms: wall_ms(), error: (err as Error).message };
  }
  const scratch = warmUpRun(run, location);
  const journals = [
    options.journal === undefined ? undefined : scratchJournal(options.journal, options.scratch_dir),
    spec.live.journal === true ? scratchJournal('nothing') : undefined,
  ];
  const runtimes = journals.map(
    (journal) =>
      new LiveRuntime({
        transport: new NatsTransport(nc, scratch),
        run: scratch,
        seed: spec.seed,
        log: silentLogger,
        check: MESSAGE_CHECK,
        ...reliableDelivery(spec),
        ...(journal ? { journal: { store: journal.store, recovering: false } } : {}),
      }),
  );
  const [here, others] = runtimes as [LiveRuntime, LiveRuntime];
  const exercised = () => ({
    journal_appends: runtimes.reduce((n, rt) => n + (rt.counters.get('journal.appends') ?? 0), 0),
    acks_sent: runtimes.reduce((n, rt) => n + (rt.counters.get('bus.acks_sent') ?? 0), 0),
  });
  const budget_ms = options.budget_ms ?? WARM_UP_BUDGET_MS;
  try {
    for (const p of plan.actors) (p.location === location ? here : others).spawn(p);
    await Promise.all(runtimes.map((rt) => rt.ready()));
    await nc.flush();
    for (const rt of runtimes) rt.start(0, WARM_UP_SPEEDUP);
    while (!plan.driver.done && performance.now() - started < budget_ms) await new Promise((r) => setTimeout(r, 5));
    return { jobs: plan.driver.total, finished: plan.driver.finished, wall_ms: wall_ms(), ...exercised() };
  } catch (err) {
    return {
      jobs: plan.driver.total,
      finished: plan.driver.finished,
      wall_ms: wall_ms(),
      error: (err as Error).message,
      ...exercised(),
    };
  } finally {
    await Promise.all(runtimes.map((rt) => rt.stop().catch(() => undefined)));
    for (const j of journals) j?.dispose();
    plan.close?.();
  }
}

/**
 * A journal for the warm-up, of the kind the run's is (WarmUpJournal), or `nothing`: a store that
 * stores nothing and has stored each batch once its append returns, as a file has. Nobody replays
 * a warm-up.
 */
function scratchJournal(
  kind: WarmUpJournal | 'nothing',
  parent = tmpdir(),
): { readonly store: Journal; readonly dispose: () => void } {
  const stored = () => Promise.resolve();
  const none = () => Promise.resolve([]);
  if (kind === 'nothing') return { store: { synchronous: true, append: stored, readAll: none }, dispose: () => {} };
  // Not synchronous: the writer gathers a loop pass's turns into each append, as for JetStream.
  if (kind === 'network') return { store: { append: stored, readAll: none }, dispose: () => {} };
  const dir = mkdtempSync(join(parent, 'gridemu-warm-up-'));
  const store = FileJournal.open(dir, 'warm-up', true);
  return {
    store,
    dispose: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What summary.json's `live.processes` shows of a warm-up; nothing for one that did not run. */
export function warmUpFigures(
  report: WarmUpReport | undefined,
): { jobs: number; finished: number; wall_ms: number } | undefined {
  return report === undefined || report.skipped !== undefined
    ? undefined
    : { jobs: report.jobs, finished: report.finished, wall_ms: report.wall_ms };
}

/** One line in the process's log: what its warm-up did, or why it did not. */
export function logWarmUp(log: Logger, report: WarmUpReport): void {
  if (report.skipped !== undefined) log.info({ reason: report.skipped }, 'no warm-up');
  else if (report.error !== undefined)
    log.warn({ ...report }, 'warm-up failed; the run goes on, its first seconds slower');
  else
    log.info(
      { ...report },
      report.finished < report.jobs ? 'warm-up stopped at its time limit' : "warm-up done: the run's code is compiled",
    );
}

/**
 * `perSite` small jobs at each site this process hosts, and `perSite` more spread over the other
 * sites, so that its actors both send work out and take it in; a process hosting no site (the
 * driver, `central`) sees them all anyway. The grid's size does not depend on the number of sites:
 * a sixteen-site run does not warm up sixteen times as long. Widths and lengths vary; each job fits.
 */
export function warmUpJobs(spec: ExperimentSpec, location: string | undefined, perSite: number): Job[] {
  const hosted = spec.sites.filter((s) => s.id === location);
  const others = spec.sites.filter((s) => s.id !== location);
  const jobs: Job[] = [];
  const add = (site: ExperimentSpec['sites'][number], i: number) => {
    const run_s = 100 + ((i * 37) % 900);
    const procs = 1 + ((i * 7) % Math.max(1, Math.min(16, site.cpus)));
    jobs.push({
      id: `warm-${site.id}!${i}`,
      workload: `warm-${site.id}`,
      origin: site.id,
      submit_s: 1 + i * SUBMIT_SPACING_S,
      run_s,
      estimate_s: 2 * run_s,
      procs,
    });
  };
  for (const site of hosted) for (let i = 0; i < perSite; i++) add(site, i);
  for (let i = 0; i < perSite && others.length > 0; i++) add(others[i % others.length]!, i);
  return jobs.sort((a, b) => a.submit_s - b.submit_s);
}
