import { Rng } from '@gridemu/runtime';

/**
 * §4's estimate-error models: L̂ = L(1 + E) per task and μ̂ = μ(1 + E′) per resource, with E drawn
 * uniform on [−I, +I] (over and under) or [0, +I] (over only). Errors apply to task lengths alone
 * or to lengths and rates. Each draw is keyed by the seed and the task or resource, so every
 * scheme and both runtimes see the same estimates. The routers see only these; execution uses
 * the true values.
 */
export interface ErrorModel {
  readonly model: 'over-under' | 'over';
  /** I, the largest relative error (0.4 is 40%). */
  readonly I: number;
  readonly apply: 'lengths' | 'both';
}

function relativeError(e: ErrorModel, rng: Rng): number {
  if (e.I === 0) return 0;
  return e.model === 'over' ? rng.uniform(0, e.I) : rng.uniform(-e.I, e.I);
}

export function estimatedLength(L: number, taskId: string, e: ErrorModel, seed: number): number {
  return L * (1 + relativeError(e, new Rng(seed, `estimate/length/${taskId}`)));
}

export function estimatedRate(mu: number, site: string, e: ErrorModel, seed: number): number {
  if (e.apply === 'lengths') return mu;
  return mu * (1 + relativeError(e, new Rng(seed, `estimate/rate/${site}`)));
}
