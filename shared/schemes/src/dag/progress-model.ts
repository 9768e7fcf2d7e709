/**
 * Paper 003's execution-time prediction models (§4, Figure 3). A task reports its progress P, the
 * fraction of its work done; the scheduler predicts its whole length as E = T / P after T seconds
 * (§3). How E moves over time depends on how progress accrues:
 * - `decreasing`: P(x) = x^a with a > 1: early progress is slow, so E starts high and falls to the
 *   true length L (Figure 3's Orbal);
 * - `increasing`: P(x) = x^a with a < 1: early progress is fast, so E starts low and rises to L (Lux);
 * - `oscillating`: P(x) = x + A·sin(2πkx)/(2πk): E swings around L, less and less (Bamberg, Galindo_OL).
 * x is the fraction of the task's true time elapsed. Our parameters (the paper gives none):
 * a = 2 and a = 0.5, A = 0.8 with k = 3 cycles. Each P is monotone, 0 at the start and 1 at the end.
 * An experiment may give its own exponent a (`meta.model_exponent`), so a report can move what
 * Figure 3 was read as.
 */
export type PredictionModel = 'decreasing' | 'increasing' | 'oscillating';

export const PREDICTION_MODELS: readonly PredictionModel[] = ['decreasing', 'increasing', 'oscillating'];

export const DEFAULT_EXPONENT = { decreasing: 2, increasing: 0.5 } as const;
const OSCILLATION = { amplitude: 0.8, cycles: 3 } as const;

/** The progress P after a fraction x in [0, 1] of the task's true time; `exponent` is a for the power models. */
export function progressAt(model: PredictionModel, x: number, exponent?: number): number {
  const t = Math.min(1, Math.max(0, x));
  if (model === 'oscillating') {
    const w = 2 * Math.PI * OSCILLATION.cycles;
    return t + (OSCILLATION.amplitude * Math.sin(w * t)) / w;
  }
  return t ** (exponent ?? DEFAULT_EXPONENT[model]);
}

/** The scheduler's prediction of the whole length, E = T / P, after `elapsed_s` of a task truly `length_s` long; undefined before any progress. */
export function predictedLength(
  model: PredictionModel,
  length_s: number,
  elapsed_s: number,
  exponent?: number,
): number | undefined {
  const p = progressAt(model, elapsed_s / length_s, exponent);
  return p > 0 ? elapsed_s / p : undefined;
}
