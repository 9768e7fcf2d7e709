import type { ExperimentSpec, Job } from '@gridemu/model';
import type { JobRecord, SiteCapacity } from '@gridemu/metrics';
import type { Message } from '@gridemu/protocol';
import { SimRuntime, type Logger } from '@gridemu/runtime';
import { planGrid } from './plan.js';

export interface SimulationProgress {
  readonly finished: number;
  readonly total: number;
  readonly now_s: number;
}

export interface SimulationResult {
  readonly records: readonly JobRecord[];
  readonly execSites: readonly SiteCapacity[];
  readonly messages: { readonly all: Record<string, number>; readonly cross_site: Record<string, number> };
  readonly counters: Record<string, number>;
  readonly deliveries: number;
  readonly end_s: number;
}

export interface SimulateOptions {
  readonly log?: Logger;
  /** Called every `progressEvery` deliveries and once at the end. */
  readonly onProgress?: (p: SimulationProgress) => void;
  readonly progressEvery?: number;
}

/** Runs a spec's scheme on its jobs in the deterministic runtime, to the last event. */
export function simulate(spec: ExperimentSpec, jobs: readonly Job[], options: SimulateOptions = {}): SimulationResult {
  const runtime = new SimRuntime<Message>({ seed: spec.seed, network: spec.network, ...(options.log ? { log: options.log } : {}) });
  const plan = planGrid(spec, jobs);
  for (const p of plan.actors) runtime.spawn(p);
  runtime.start();
  const every = options.progressEvery ?? 20_000;
  // Periodic actors (load gossip) never run out of work: the run ends when every job has its outcome.
  const done = () => plan.driver.done;
  while (!done() && runtime.step(every, done)) {
    options.onProgress?.({ finished: plan.driver.finished, total: plan.driver.total, now_s: runtime.now() });
  }
  options.onProgress?.({ finished: plan.driver.finished, total: plan.driver.total, now_s: runtime.now() });
  return {
    records: plan.driver.records,
    execSites: plan.execSites,
    messages: { all: sorted(runtime.messages.all), cross_site: sorted(runtime.messages.crossSite) },
    counters: sorted(runtime.counters),
    deliveries: runtime.deliveries,
    end_s: runtime.now(),
  };
}

function sorted(m: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
}
