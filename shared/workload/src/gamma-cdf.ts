/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; ~15 significant digits). */
export function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

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
