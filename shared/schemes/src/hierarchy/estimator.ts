import type { Rng } from '@gridemu/runtime';

/**
 * The complexity estimator paper 000 assumes (§3.2.2): it returns an upper bound on a task's
 * complexity, and the longer it runs the tighter the bound. Modelled as
 *   bound(t) = C · (1 + (k − 1) · e^(−t / τ)),
 * from a first bound k times the true complexity C, relaxing towards C with time constant τ
 * (seconds of estimation); `k` is drawn per task, uniform in [k_min, k_max].
 */
export interface EstimatorParams {
  readonly k_min: number;
  readonly k_max: number;
  readonly tau_s: number;
}

export function initialLooseness(p: EstimatorParams, rng: Rng): number {
  return p.k_min === p.k_max ? p.k_min : rng.uniform(p.k_min, p.k_max);
}

/** The bound after `elapsed_s` seconds of estimation, for a task of true complexity `C` and looseness `k`. */
export function complexityBound(C: number, k: number, elapsed_s: number, p: Pick<EstimatorParams, 'tau_s'>): number {
  return C * (1 + (k - 1) * Math.exp(-Math.max(0, elapsed_s) / p.tau_s));
}
