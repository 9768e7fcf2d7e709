import { describe, expect, it } from 'vitest';
import { idleAxes } from '../src/sweep/idle-axes.js';
import { variants } from '../src/sweep/variants.js';

/** Runs of a two-axis sweep over two seeds whose outcome (mean wait) is `wait` of a variant. */
function runs(wait: (k: string, latency: string, seed: number) => number) {
  const axes = [
    { path: 'meta.k', values: ['1', '2'] },
    { path: 'network.latency_ms', values: ['0', '10'] },
  ];
  return variants(axes, [1, 2]).map((variant) => {
    const [k, latency] = variant.sets.map((s) => s.split('=')[1]!);
    // The wall time differs from run to run whatever the outcome.
    return { variant, metrics: { mean_wait_s: wait(k!, latency!, variant.seed), wall_time_s: Math.random() } };
  });
}

describe("a sweep's axes that changed nothing", () => {
  const paths = ['meta.k', 'network.latency_ms'];

  it('names an axis whose every value gave each run the same outcome, wall time aside', () => {
    expect(
      idleAxes(
        paths,
        runs((_k, latency, seed) => Number(latency) * 3 + seed),
      ),
    ).toEqual(['meta.k']);
  });

  it('names none when each axis changes some run, even one seed of one combination', () => {
    expect(
      idleAxes(
        paths,
        runs((k, latency, seed) => Number(k) + Number(latency) + seed),
      ),
    ).toEqual([]);
    const once = runs((k, latency, seed) => (k === '2' && latency === '10' && seed === 2 ? 1 : 0));
    expect(idleAxes(paths, once)).toEqual([]);
  });

  it('does not take differing seeds, or the other axis, for a change', () => {
    // Seeds differ and latency matters; k still changes nothing within each seed and latency.
    expect(
      idleAxes(
        paths,
        runs((_k, latency, seed) => seed * 100 + Number(latency)),
      ),
    ).toEqual(['meta.k']);
  });
});
