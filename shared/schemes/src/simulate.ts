import { runEpoch_s, type ExperimentSpec, type Job } from '@gridemu/model';
import type { JobRecord, SiteCapacity } from '@gridemu/metrics';
import type { Message } from '@gridemu/protocol';
import {
  locationPartitions,
  SimRuntime,
  type Logger,
  type MeasuredNetwork,
  type SimFaults,
  type TraceRecord,
} from '@gridemu/runtime';
import { planGrid } from './plan.js';
import { DURABLE_MESSAGES, LATEST_VALUE_TOPICS } from './registry.js';
import { stalledRunWatch } from './stalled-run.js';
import type { GridPlan } from './scheme-module.js';

export interface SimulationProgress {
  readonly finished: number;
  readonly total: number;
  readonly now_s: number;
}

export interface SimulationResult {
  readonly records: readonly JobRecord[];
  readonly execSites: readonly SiteCapacity[];
  readonly messages: {
    readonly all: Record<string, number>;
    readonly cross_site: Record<string, number>;
    readonly per_hour: Record<string, number>;
  };
  readonly counters: Record<string, number>;
  readonly deliveries: number;
  readonly end_s: number;
  /** The protocol steps the actors traced, in the order they happened (empty unless `protocol_trace: true`). */
  readonly trace: readonly TraceRecord[];
}

export interface SimulateOptions {
  readonly log?: Logger;
  /** Called every `progressEvery` deliveries and once at the end. */
  readonly onProgress?: (p: SimulationProgress) => void;
  readonly progressEvery?: number;
  /** Called after every delivery, with the plan's actors: fuzzing checks its invariants here. */
  readonly afterDelivery?: (plan: GridPlan) => void;
  /** A live run's network to replay instead of the spec's (`simulate --network-from`). */
  readonly measured?: MeasuredNetwork;
  /** Seeds the network's draws only (a replay's spread over draws of the same run). */
  readonly networkSeed?: number;
}

/**
 * Runs a spec's scheme on its jobs in the deterministic runtime, to the last event. Throws a
 * SimulationError when an actor breaks an invariant, and a StalledRunError when the run would never
 * end (no job reaches its outcome for long past the last submission and fault: stalled-run.ts).
 */
export function simulate(spec: ExperimentSpec, jobs: readonly Job[], options: SimulateOptions = {}): SimulationResult {
  const runtime = new SimRuntime<Message>({
    seed: spec.seed,
    network: spec.network,
    faults: simFaults(spec),
    ...(options.log ? { log: options.log } : {}),
    ...(options.measured ? { measured: options.measured } : {}),
    // The live run's bus bound on load reports, at its speed-up: the replay thins them as it did.
    ...(options.measured && options.measured.reportInterval_s > 0
      ? { latestValue: { topics: LATEST_VALUE_TOPICS, interval_s: options.measured.reportInterval_s } }
      : {}),
    ...(options.networkSeed !== undefined ? { networkSeed: options.networkSeed } : {}),
    ...(spec.protocol_trace === true ? { trace: true } : {}),
  });
  const plan = planGrid(spec, jobs);
  for (const p of plan.actors) runtime.spawn(p);
  runtime.start(runEpoch_s(jobs));
  const every = options.progressEvery ?? 20_000;
  // Periodic actors (load gossip) never run out of work: the run ends when every job has its
  // outcome, or the watch calls it stuck.
  const check = options.afterDelivery;
  const done = check ? () => (check(plan), plan.driver.done) : () => plan.driver.done;
  const stall = stalledRunWatch(spec, jobs);
  try {
    while (!done() && runtime.step(every, done)) {
      stall.check(plan.driver.finished, runtime.now(), plan.driver.records);
      options.onProgress?.({ finished: plan.driver.finished, total: plan.driver.total, now_s: runtime.now() });
    }
  } finally {
    plan.close?.();
  }
  options.onProgress?.({ finished: plan.driver.finished, total: plan.driver.total, now_s: runtime.now() });
  return {
    records: plan.driver.records,
    execSites: plan.execSites,
    messages: {
      all: sorted(runtime.messages.all),
      cross_site: sorted(runtime.messages.crossSite),
      per_hour: Object.fromEntries([...runtime.messagesPerHour()].map(([h, n]) => [String(h), n])),
    },
    counters: sorted(runtime.counters),
    deliveries: runtime.deliveries,
    end_s: runtime.now(),
    trace: runtime.traceRecords,
  };
}

/**
 * The experiment's `faults:` as the simulator applies them. A nats-server restart is the bus down
 * for its down_s: what any two processes send each other meanwhile arrives once it is back.
 */
export function simFaults(spec: ExperimentSpec): SimFaults {
  const f = spec.faults;
  return {
    crashes: f.crash.map((c) => ({ location: c.process, at_s: c.at_s, down_s: c.down_s })),
    partitions: locationPartitions(f.partition),
    outages: f.nats_restart.map((r) => ({ from_s: r.at_s, to_s: r.at_s + r.down_s })),
    dropRate: f.drop,
    durable: (msg) => DURABLE_MESSAGES.has(msg.type),
  };
}

function sorted(m: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
}
