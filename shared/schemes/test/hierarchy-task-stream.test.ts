import { describe, expect, it } from 'vitest';
import { Rng } from '@gridemu/runtime';
import { generateTaskStream, TASK_STREAM_DEFAULTS } from '../src/hierarchy/task-stream.js';

describe("paper 000's task stream (Figure 7)", () => {
  const tasks = generateTaskStream({ ...TASK_STREAM_DEFAULTS, tasks: 20_000 }, new Rng(5));

  it('is biased to short tasks: about 60% last minutes, about 28% up to 3 h, and a heavy tail beyond', () => {
    const share = (f: (w: number) => boolean) => tasks.filter((t) => f(t.work_s)).length / tasks.length;
    expect(share((w) => w <= 600)).toBeCloseTo(0.6, 1);
    expect(share((w) => w > 600 && w <= 3 * 3600)).toBeCloseTo(0.28, 1);
    expect(share((w) => w > 3 * 3600)).toBeGreaterThan(0.08);
    expect(share((w) => w > 24 * 3600)).toBeGreaterThan(0.005); // days-long tasks exist
    expect(Math.max(...tasks.map((t) => t.work_s))).toBeLessThanOrEqual(20 * 24 * 3600);
  });

  it('arrives in bursts: many gaps are seconds, the mean gap is much longer', () => {
    const gaps = tasks.slice(1).map((t, i) => t.submit_s - tasks[i]!.submit_s);
    expect(gaps.every((g) => g >= 0)).toBe(true);
    const short = gaps.filter((g) => g <= 60).length / gaps.length;
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    expect(short).toBeGreaterThan(0.5);
    expect(mean).toBeGreaterThan(300);
  });

  it('is the same stream for the same seed', () => {
    expect(generateTaskStream({ ...TASK_STREAM_DEFAULTS, tasks: 50 }, new Rng(5))).toEqual(tasks.slice(0, 50));
  });
});
