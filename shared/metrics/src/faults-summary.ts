import type { ExperimentSpec } from '@gridemu/model';
import { roundNumber } from './format.js';
import type { JobRecord } from './job-record.js';

/** summary.json's `faults` block: what was injected and what it cost. */
export interface FaultsSummary {
  readonly crashes: number;
  /** Crashes carried out: every one in a simulation; in a live run, the processes killed and started again. */
  readonly crashes_applied: number;
  readonly partitions: number;
  readonly drop: number;
  /**
   * NATS server restarts asked for, and applied: live, the server stopped and started again; in a
   * simulation, the bus down (every message between two processes held until it is back).
   */
  readonly nats_restarts: { readonly asked: number; readonly applied: number };
  /** Runs that died in a crash, and the jobs that had to run again. */
  readonly lost_runs: number;
  readonly jobs_restarted: number;
  readonly lost_processor_s: number;
  readonly messages_dropped: number;
  readonly messages_lost_while_down: number;
  readonly messages_held_by_partition: number;
  /** In a simulation, the messages held while the bus was down (a server restart). */
  readonly messages_held_by_outage: number;
  /**
   * In a simulation, the durable messages whose receiver came back while their sender was down:
   * held on until the sender was back too, as a live sender's outbox holds them.
   */
  readonly messages_held_for_sender: number;
}

/** Whether the spec injects any fault. */
export function injectsFaults(spec: ExperimentSpec): boolean {
  const f = spec.faults;
  return f.crash.length > 0 || f.partition.length > 0 || f.drop > 0 || f.nats_restart.length > 0;
}

export function faultsSummary(
  spec: ExperimentSpec,
  mode: 'simulate' | 'run',
  counters: Readonly<Record<string, number>>,
  records: readonly JobRecord[],
): FaultsSummary {
  const f = spec.faults;
  let lost = 0;
  let restarted = 0;
  for (const r of records) {
    lost += r.lostRuns.length;
    if (r.lostRuns.length > 0) restarted++;
  }
  return {
    crashes: f.crash.length,
    crashes_applied: f.crash.length,
    partitions: f.partition.length,
    drop: f.drop,
    nats_restarts: {
      asked: f.nats_restart.length,
      applied: counters[mode === 'run' ? 'faults.nats_restarts' : 'faults.bus_outages'] ?? 0,
    },
    lost_runs: lost,
    jobs_restarted: restarted,
    lost_processor_s: roundNumber(counters['jobs.lost_processor_s'] ?? 0, 3),
    messages_dropped: counters['messages.dropped'] ?? 0,
    messages_lost_while_down: counters['messages.lost_while_down'] ?? 0,
    messages_held_by_partition: counters['messages.held_by_partition'] ?? 0,
    messages_held_by_outage: counters['messages.held_by_outage'] ?? 0,
    messages_held_for_sender: counters['messages.held_for_sender'] ?? 0,
  };
}
