import { lnGamma } from '@gridemu/metrics';

export { lnGamma };

/** CDF of the gamma distribution with shape `alpha` and scale `beta` (regularized P(α, x/β)). */
export function gammaCdf(x: number, alpha: number, beta: number): number {
  const z = x / beta;
  if (z <= 0) return 0;
  const front = Math.exp(-z + alpha * Math.log(z) - lnGamma(alpha));
  if (z < alpha + 1) {
    // Series: P = e^-z z^a / Γ(a) Σ z^n / (a (a+1) ... (a+n)).
    let term = 1 / alpha;
    let sum = term;
    for (let n = 1; n < 1000; n++) {
      term *= z / (alpha + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return sum * front;
  }
  // Continued fraction for Q = 1 - P (modified Lentz).
  const tiny = 1e-300;
  let b = z + 1 - alpha;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - alpha);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return 1 - front * h;
}
