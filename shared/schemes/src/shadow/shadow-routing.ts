/**
 * Grid Shadow Routing (paper 004, Figure 1): a virtual queue per resource stands in for its real
 * load, so routing needs no state from the resources. Pure and deterministic.
 *
 * With `classLengths`, the class-based Shadow Routing the paper starts from (§3.2, after Stolyar
 * and Tezcan 2009): a task is known only by its class, a class by one length, and the choice is the
 * lowest current load, argmin_r Q_r · ℓ_i/μ̂_r (the paper: "the basic Shadow Routing algorithm only
 * considers the current load of each resource"), adding ℓ_i/μ̂_m. The normalization is Figure 1's
 * with ℓ_i for L̂, so the two differ only in the two changes §3.2 makes. A task's class is the one
 * whose length is nearest its estimate on a log scale.
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
    /** Class-based: each class's length, ascending (undefined: per task, Figure 1). */
    private readonly classLengths?: readonly number[],
  ) {
    if (
      classLengths &&
      (classLengths.length === 0 || classLengths.some((l, i) => !(l > 0) || l <= (classLengths[i - 1] ?? 0)))
    )
      throw new Error('assertion: class lengths must be positive and ascending');
    // "set the initial values of Q_r to ηQ_r = 1/M for all r"
    this.Q = muHat.map(() => 1 / (eta * muHat.length));
  }

  /**
   * Routes a task of estimated length L̂: step 1 picks argmin_r (Q_r + L̂/μ̂_r) · L̂/μ̂_r (ties: the
   * lowest index); step 2 adds L̂/μ̂_m to Q_m; then, if η ΣQ_r >= 1, every Q_r loses
   * c_k = 2 · max_r L̂/μ̂_r, floored at 0. Returns the chosen index.
   */
  route(Lhat: number): number {
    const byClass = this.classLengths !== undefined;
    const L = byClass ? this.classLength(Lhat) : Lhat;
    let best = -1;
    let bestScore = Infinity;
    let maxTime = 0;
    for (let r = 0; r < this.muHat.length; r++) {
      const mu = this.muHat[r]!;
      if (!(mu > 0) || this.away.has(r)) continue;
      const t = L / mu;
      maxTime = Math.max(maxTime, t);
      const score = byClass ? this.Q[r]! * t : (this.Q[r]! + t) * t;
      // Class-based, empty queues tie at 0: the fastest of them (the least load the task adds).
      if (score < bestScore || (byClass && score === bestScore && t < L / this.muHat[best]!)) {
        bestScore = score;
        best = r;
      }
    }
    if (best < 0) throw new Error('assertion: no resource present with a positive estimated rate');
    this.Q[best] = this.Q[best]! + L / this.muHat[best]!;
    let total = 0;
    for (const q of this.Q) total += q;
    if (this.eta * total >= 1) {
      const c = 2 * maxTime;
      for (let r = 0; r < this.Q.length; r++) this.Q[r] = Math.max(0, this.Q[r]! - c);
      this.normalizations++;
    }
    return best;
  }

  /** The length of the class a task of estimated length L̂ falls in: the nearest on a log scale. */
  classLength(Lhat: number): number {
    const lengths = this.classLengths!;
    let i = 0;
    // Between two classes, the boundary is their geometric mean.
    while (i + 1 < lengths.length && Lhat > Math.sqrt(lengths[i]! * lengths[i + 1]!)) i++;
    return lengths[i]!;
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
