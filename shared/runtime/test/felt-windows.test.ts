import { describe, expect, it } from 'vitest';
import { feltWindowsProblem } from '@gridemu/protocol';
import {
  FELT_WINDOW_MS,
  FELT_WINDOW_QUANTILES,
  FeltWindows,
  MAX_FELT_WINDOW_ENTRIES,
  MIN_FELT_WINDOW_SAMPLES,
} from '../src/live.js';

const SPEEDUP = 20_000;
/** One window at this speed-up: 250 wall ms, 5,000 emulated s. */
const W = (FELT_WINDOW_MS * SPEEDUP) / 1000;

describe('FeltWindows: what each link felt over the run', () => {
  it('cuts a link into spans of whole windows holding enough deliveries each, a quiet stretch taking several', () => {
    const w = new FeltWindows();
    const at = (window: number, n: number, ms: number) => {
      for (let i = 0; i < n; i++) w.record('a->b', 'job.copy', window * W + i, ms, SPEEDUP);
    };
    at(0, 30, 10); // busy: a span alone
    at(1, 8, 12); // quiet: three windows...
    at(2, 0, 0);
    at(3, 7, 12);
    at(4, 6, 12); // ...make one span of 21
    at(5, 40, 60); // busy again, and slow
    at(6, 5, 11); // a quiet tail too short for a span: it joins the one before
    const s = w.state();
    expect(s.quantiles).toEqual(FELT_WINDOW_QUANTILES);
    const link = s.links['a->b']!;
    expect(link.window_s).toBe(W);
    expect(Object.keys(link.at).map(Number)).toEqual([0, W, 5 * W]);
    expect(Object.values(link.at).map((x) => x.count)).toEqual([30, 21, 45]);
    // Every delivery stands in one span.
    expect(Object.values(link.at).reduce((n, x) => n + x.count, 0)).toBe(30 + 8 + 7 + 6 + 40 + 5);
    // Each span as its delays at the levels: the least, the median, the most.
    const [first, quiet, busy] = Object.values(link.at).map((x) => x.q_ms);
    expect(first![0]).toBe(10);
    expect(first!.at(-1)!).toBeGreaterThan(10 / 1.045);
    expect(quiet![5]).toBeGreaterThan(12 / 1.045);
    expect(quiet![5]).toBeLessThanOrEqual(12);
    expect(busy![0]).toBe(11);
    // Within the bucket that holds it (log buckets about 4.4% wide).
    expect(busy![5]).toBeGreaterThan(60 / 1.045);
    expect(busy![5]).toBeLessThanOrEqual(60);
    expect(busy!.at(-1)!).toBeGreaterThan(60 / 1.045);
    // Every delivery was a job copy: the type's spans are the link's.
    expect(s.types!['job.copy']!['a->b']).toEqual(link);
    expect(feltWindowsProblem(s)).toBeUndefined();
  });

  it("keeps a type's own spans on a link where it had enough deliveries for one, and leaves it to the link's otherwise", () => {
    const w = new FeltWindows();
    for (let i = 0; i < MIN_FELT_WINDOW_SAMPLES; i++) w.record('a->b', 'load.report', i, 30, SPEEDUP);
    for (let i = 0; i < MIN_FELT_WINDOW_SAMPLES - 1; i++) w.record('a->b', 'job.copy', i, 5, SPEEDUP);
    const s = w.state();
    expect(Object.keys(s.types!)).toEqual(['load.report']);
    expect(s.types!['load.report']!['a->b']!.at['0']!.q_ms[0]).toBe(30);
    // The link's span holds both: the copies at 5 ms are its lower half.
    expect(s.links['a->b']!.at['0']!.count).toBe(2 * MIN_FELT_WINDOW_SAMPLES - 1);
    expect(s.links['a->b']!.at['0']!.q_ms[0]).toBe(5);
  });

  it('keeps a link with fewer deliveries than a span needs as one span, and reports nothing before the first delivery', () => {
    const w = new FeltWindows();
    expect(w.state().links).toEqual({});
    for (let i = 0; i < MIN_FELT_WINDOW_SAMPLES - 1; i++) w.record('x->y', 'job.copy', 7 * W + i * W, 3, SPEEDUP);
    const x = w.state().links['x->y']!;
    expect(Object.keys(x.at)).toEqual([String(7 * W)]);
    expect(x.at[String(7 * W)]!.count).toBe(MIN_FELT_WINDOW_SAMPLES - 1);
  });

  it('doubles every window once a process holds too many, so a long run still fits a report', () => {
    const w = new FeltWindows();
    const links = 8;
    const windows = (2 * MAX_FELT_WINDOW_ENTRIES) / links;
    for (let k = 0; k < windows; k++)
      for (let l = 0; l < links; l++)
        for (let i = 0; i < MIN_FELT_WINDOW_SAMPLES; i++)
          w.record(`s${l}->t`, 'load.report', k * W, 1 + (k % 3), SPEEDUP);
    const s = w.state();
    const total = Object.values(s.links).reduce((n, l) => n + Object.values(l.at).reduce((m, x) => m + x.count, 0), 0);
    expect(total).toBe(windows * links * MIN_FELT_WINDOW_SAMPLES);
    // A link and its one type are two series: 8,192 (window, series) entries, halved twice.
    const series = [...Object.values(s.links), ...Object.values(s.types!['load.report']!)];
    const entries = series.reduce((n, l) => n + Object.keys(l.at).length, 0);
    expect(entries).toBeLessThanOrEqual(MAX_FELT_WINDOW_ENTRIES);
    for (const l of series) {
      expect(l.window_s).toBe(4 * W);
      for (const start of Object.keys(l.at)) expect(Number(start) % l.window_s).toBe(0);
    }
  });
});

describe('feltWindowsProblem', () => {
  it('names what is wrong', () => {
    expect(feltWindowsProblem({ quantiles: [0, 1], links: {} })).toBeUndefined();
    expect(feltWindowsProblem({ quantiles: [0.5, 0.2], links: {} })).toMatch(/^quantiles must/);
    expect(feltWindowsProblem({ quantiles: [0, 1], links: { 'a->b': { window_s: 0, at: {} } } })).toBe(
      'links.a->b.window_s must be a positive number',
    );
    expect(
      feltWindowsProblem({
        quantiles: [0, 1],
        links: { 'a->b': { window_s: 5, at: { '10': { count: 3, q_ms: [4, 2] } } } },
      }),
    ).toMatch(/^links\.a->b\.at\.10 must be \{ count, q_ms \}/);
    expect(
      feltWindowsProblem({
        quantiles: [0, 1],
        links: { 'a->b': { window_s: 5, at: { '10': { count: 3, q_ms: [1] } } } },
      }),
    ).toMatch(/one rising delay per quantile level/);
  });
});
