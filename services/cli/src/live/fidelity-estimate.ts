import type { ExperimentSpec, Job } from '@gridemu/model';
import { fidelityInputs, judgeFidelity } from '@gridemu/live';

/**
 * The fidelity guard's verdict from the experiment file alone, said before `gridemu run` starts
 * its processes. One hop takes at least the link latency, so a speed-up that makes that too large
 * a share of the scheme's timeouts and periods is too high before any process runs (a 30 ms link
 * at 20,000x is 600 emulated s, against GRUBER's 15 s median job). The driver's verdict before the
 * run adds what it measures of the bus (summary.live.fidelity.before), the run's what it felt.
 */
export function fidelityEstimateLines(spec: ExperimentSpec, jobs: readonly Job[]): string[] {
  const speedup = spec.live.speedup;
  const v = judgeFidelity({ speedup, hop_ms: spec.network.latency_ms, timer_lag_ms: 0, ...fidelityInputs(spec, jobs) });
  if (v.exceeded.length === 0 && v.thinned.length === 0) return [];
  const lines = ['FIDELITY WARNING, estimated from the experiment file before the run:'];
  if (v.exceeded.length > 0)
    lines.push(
      `  - one hop takes at least the link latency, ${round(v.hop_s)} emulated s at speed-up ${speedup}: more than ` +
        `${Math.round(v.share * 100)}% of ${v.exceeded.map((e) => `${e.name} (${round(e.seconds)} s)`).join(', ')}`,
    );
  if (v.thinned.length > 0)
    lines.push(
      `  - the bus thins the reports of ${v.thinned.map((t) => `${t.name} (${round(t.seconds)} s)`).join(', ')}`,
    );
  const r = v.recommended_speedup;
  lines.push(
    r !== undefined && r >= 1
      ? `  - speed-up ${r} or lower keeps within them (summary.live.fidelity has the guard's verdicts, the bus measured)`
      : '  - no speed-up of 1 or more keeps within them: shorten network.latency_ms, or lengthen the timeouts and periods',
  );
  return lines;
}

const round = (x: number) => (x >= 10 ? String(Math.round(x)) : x.toPrecision(2));
