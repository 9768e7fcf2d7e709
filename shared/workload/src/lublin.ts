import type { LublinClassParams, LublinParams } from '@gridemu/model';
import type { Rng } from '@gridemu/runtime';
import { gammaCdf } from './gamma-cdf.js';

/** A job drawn from the model, before it is given an id and an origin. */
export interface SyntheticJob {
  readonly number: number;
  readonly submit_s: number;
  readonly run_s: number;
  readonly estimate_s: number;
  readonly procs: number;
  readonly kind: 'batch' | 'interactive';
}

const BUCKETS = 48; // half hours in a day
const BUCKET_S = 1800;
/** The model's daily cycle is fitted on hours [11, 35) and folded back onto the day. */
const CYCLIC_DAY_START = 11;
/** Draws above these (log seconds) are redrawn: runtimes over ~2 days, gaps over ~5 days. */
const MAX_LOG_RUNTIME = 12;
const MAX_LOG_INTERARRIVAL = 13;

/**
 * The Lublin–Feitelson model of rigid parallel jobs (JPDC 2003): job sizes from a two-stage
 * log-uniform with a bias to powers of two, runtimes from a hyper-gamma (in log seconds) whose
 * mixing weight depends on the size, and arrivals from a gamma inter-arrival time bent by a daily
 * cycle. Batch and interactive jobs arrive as two interleaved streams.
 */
export function* generateLublin(params: LublinParams, maxProcs: number, rng: Rng): Generator<SyntheticJob> {
  const uhi = params.uhi ?? Math.log2(maxProcs);
  const streams = {
    batch: new ArrivalStream(params.batch, params, rng),
    interactive: new ArrivalStream(params.interactive, params, rng),
  };
  for (let n = 1; n <= params.jobs; n++) {
    // The next job is of the class whose next arrival comes first (of the classes that arrive).
    const kind =
      params.classes !== 'both'
        ? params.classes
        : streams.batch.time_s < streams.interactive.time_s
          ? 'batch'
          : 'interactive';
    const c = params[kind];
    const submit_s = streams[kind].time_s;
    streams[kind].advance();
    const procs = Math.min(maxProcs, jobSize(c, uhi, rng));
    const run_s = runtime(c, procs, rng);
    yield { number: n, submit_s, run_s, estimate_s: Math.ceil(run_s * params.estimate_factor), procs, kind };
  }
}

function jobSize(c: LublinClassParams, uhi: number, rng: Rng): number {
  const u = rng.next();
  if (u <= c.serial_prob) return 1;
  const [lo, hi] = rng.next() <= c.uprob ? [c.ulow, c.umed] : [c.umed, uhi];
  let par = lo + (hi - lo) * rng.next();
  if (u <= c.serial_prob + c.pow2_prob) par = Math.round(par);
  return Math.max(1, Math.round(Math.pow(2, par)));
}

function runtime(c: LublinClassParams, procs: number, rng: Rng): number {
  const p = Math.min(1, Math.max(0, c.pa * procs + c.pb));
  let lg: number;
  do {
    lg = rng.next() <= p ? rng.gamma(c.a1, c.b1) : rng.gamma(c.a2, c.b2);
  } while (lg > MAX_LOG_RUNTIME);
  return Math.max(1, Math.floor(Math.exp(lg)));
}

/**
 * One class's arrivals. A gamma draw gives the gap at rush hour; it is paid for in "points", and
 * each half-hour bucket costs its relative share of the day's arrivals, so gaps stretch at night.
 */
class ArrivalStream {
  private readonly weights: number[];
  private bucket: number;
  private points = 0;
  private remainder = 0;
  time_s = 0;

  constructor(
    private readonly c: LublinClassParams,
    private readonly params: LublinParams,
    private readonly rng: Rng,
  ) {
    this.weights = new Array<number>(BUCKETS).fill(0);
    for (let i = CYCLIC_DAY_START; i < BUCKETS + CYCLIC_DAY_START; i++) {
      this.weights[(i - 1) % BUCKETS] = gammaCdf(i + 0.5, c.anum, c.bnum) - gammaCdf(i - 0.5, c.anum, c.bnum);
    }
    const mean = this.weights.reduce((a, b) => a + b, 0) / BUCKETS;
    for (let i = 0; i < BUCKETS; i++) this.weights[i] = this.weights[i]! / mean;
    this.bucket = (params.start_hour * BUCKETS) / 24;
    this.advance();
  }

  advance(): void {
    let lg: number;
    do {
      lg = this.rng.gamma(this.c.aarr * this.c.arar, this.c.barr);
    } while (lg > MAX_LOG_INTERARRIVAL);
    this.points += (Math.exp(lg) * this.params.arrival_scale) / BUCKET_S;
    let gap = 0;
    while (this.points > this.weights[this.bucket]!) {
      this.points -= this.weights[this.bucket]!;
      this.bucket = (this.bucket + 1) % BUCKETS;
      gap += BUCKET_S;
    }
    const remainder = this.points / this.weights[this.bucket]!;
    gap += BUCKET_S * (remainder - this.remainder);
    this.remainder = remainder;
    this.time_s += Math.round(gap);
  }
}
