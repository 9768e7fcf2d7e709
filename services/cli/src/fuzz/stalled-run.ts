import type { ExperimentSpec, Job } from '@gridemu/model';
import type { GridPlan, SimulationProgress } from '@gridemu/schemes';

/** The least quiet (emulated s) a fuzzed run may have before it is called stuck: 30 days. */
const MIN_QUIET_S = 30 * 86_400;

/**
 * A fuzzed run that stopped getting anywhere. A simulation ends when every job has its outcome;
 * a job lost for good (a report dropped, a plan waiting on an answer that never comes) leaves the
 * periodic actors (load reports, monitors) running for ever, and `gridemu fuzz` with them (seed
 * 4633 before its fix, hung for minutes). Once the last submission and the last fault are past, a
 * run in which no job reaches its outcome for 30 days, or ten times its longest job if that is
 * longer, is stuck: the fuzz fails it, naming the jobs left.
 */
export class StalledRunWatch {
  private readonly quietFrom_s: number;
  private readonly limit_s: number;
  private finished = -1;
  private lastOutcome_s = Number.NEGATIVE_INFINITY;

  constructor(spec: ExperimentSpec, jobs: readonly Job[]) {
    const f = spec.faults;
    this.quietFrom_s = Math.max(
      ...jobs.map((j) => j.submit_s),
      ...f.crash.map((c) => c.at_s + c.down_s),
      ...f.partition.map((p) => p.to_s),
      ...f.nats_restart.map((r) => r.at_s + r.down_s),
      Number.NEGATIVE_INFINITY,
    );
    this.limit_s = Math.max(MIN_QUIET_S, 10 * Math.max(0, ...jobs.map((j) => j.run_s)));
  }

  /** simulate's onProgress: throws once the run is stuck; `plan` names the jobs still without an outcome. */
  progress(p: SimulationProgress, plan: GridPlan | undefined): void {
    if (p.finished !== this.finished) {
      this.finished = p.finished;
      this.lastOutcome_s = p.now_s;
      return;
    }
    const quietSince_s = Math.max(this.lastOutcome_s, this.quietFrom_s);
    if (p.now_s - quietSince_s <= this.limit_s) return;
    const left = (plan?.driver.records ?? [])
      .filter((r) => r.finish_s === undefined && r.failReason === undefined && r.rejectReason === undefined)
      .map((r) => r.job.id);
    const shown = left.length > 5 ? `${left.slice(0, 5).join(', ')}, …` : left.join(', ');
    throw new Error(
      `invariant: no job lost, and the run ends: no job reached its outcome for ${Math.round(p.now_s - quietSince_s)} emulated s ` +
        `(from ${Math.round(quietSince_s)} s, past the last submission and fault, to ${Math.round(p.now_s)} s); ` +
        `${p.total - p.finished} of ${p.total} jobs have none${shown ? ` (${shown})` : ''}`,
    );
  }
}
