/**
 * Grid Shadow Routing (paper 004, Figure 1): a virtual queue per resource stands in for its real
 * load, so routing needs no state from the resources. Pure and deterministic.
 */
export class ShadowRouting {
  /** The virtual queues Q_r, seconds of estimated work. */
  readonly Q: number[];
  /** Times the normalization step ran. */
  normalizations = 0;
  /** Resources away from the grid: never chosen, their virtual queues dropped. */
  private readonly away = new Set<number>();

  constructor(
    /** Estimated execution rates μ̂_r (a resource with μ̂_r <= 0 is never chosen). */
    private readonly muHat: readonly number[],
    /** η: the trade-off between responsiveness and accuracy (the paper settles on 1/300). */
    private readonly eta: number,
  ) {
    // "set the initial values of Q_r to ηQ_r = 1/M for all r"
    this.Q = muHat.map(() => 1 / (eta * muHat.length));
  }

  /**
   * Routes a task of estimated length L̂: step 1 picks argmin_r (Q_r + L̂/μ̂_r) · L̂/μ̂_r (ties: the
   * lowest index); step 2 adds L̂/μ̂_m to Q_m; then, if η ΣQ_r >= 1, every Q_r loses
   * c_k = 2 · max_r L̂/μ̂_r, floored at 0. Returns the chosen index.
   */
  route(Lhat: number): number {
    let best = -1;
    let bestScore = Infinity;
    let maxTime = 0;
    for (let r = 0; r < this.muHat.length; r++) {
      const mu = this.muHat[r]!;
      if (!(mu > 0) || this.away.has(r)) continue;
      const t = Lhat / mu;
      maxTime = Math.max(maxTime, t);
      const score = (this.Q[r]! + t) * t;
      if (score < bestScore) {
        bestScore = score;
        best = r;
      }
    }
    if (best < 0) throw new Error('assertion: no resource present with a positive estimated rate');
    this.Q[best] = this.Q[best]! + Lhat / this.muHat[best]!;
    let total = 0;
    for (const q of this.Q) total += q;
    if (this.eta * total >= 1) {
      const c = 2 * maxTime;
      for (let r = 0; r < this.Q.length; r++) this.Q[r] = Math.max(0, this.Q[r]! - c);
      this.normalizations++;
    }
    return best;
  }

  /**
   * Resource r leaves the grid: it is not chosen until it joins again, and its virtual queue is
   * dropped (the paper's reason for per-task queues: "the virtual queues readjust").
   */
  leave(r: number): void {
    this.away.add(r);
    this.Q[r] = 0;
  }

  /** Resource r is back, with an empty virtual queue. */
  join(r: number): void {
    this.away.delete(r);
    this.Q[r] = 0;
  }

  isAway(r: number): boolean {
    return this.away.has(r);
  }
}
