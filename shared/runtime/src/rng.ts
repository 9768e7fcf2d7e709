/**
 * Seeded pseudo-random numbers: sfc32 (Doty-Humphrey's small fast counter), seeded through
 * splitmix32. One seed drives a run; `fork(label)` derives an independent stream per actor or
 * source, so adding an actor never changes the numbers another one draws (STYLE.md 7).
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(
    readonly seed: number,
    readonly label = '',
  ) {
    let s = (seed ^ hashString(label)) >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** An independent stream named by `label` (same seed and label, same numbers). */
  fork(label: string): Rng {
    return new Rng(this.seed, this.label === '' ? label : `${this.label}/${label}`);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in (0, 1): safe to take the log of. */
  nextOpen(): number {
    return (this.nextUint32() + 0.5) / 4294967296;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  exponential(mean: number): number {
    return -Math.log(this.nextOpen()) * mean;
  }

  normal(): number {
    // Box-Muller; one value per call keeps the stream position simple to reason about.
    return Math.sqrt(-2 * Math.log(this.nextOpen())) * Math.cos(2 * Math.PI * this.next());
  }

  /** Gamma with shape `alpha` and scale `beta` (Marsaglia & Tsang 2000). */
  gamma(alpha: number, beta: number): number {
    if (alpha < 1) {
      // Boost: Gamma(a) = Gamma(a + 1) * U^(1/a).
      return this.gamma(alpha + 1, beta) * Math.pow(this.nextOpen(), 1 / alpha);
    }
    const d = alpha - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.nextOpen();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v * beta;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v * beta;
    }
  }
}

/** FNV-1a, to turn a stream label into seed bits. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
