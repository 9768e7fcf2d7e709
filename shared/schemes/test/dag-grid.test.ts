import { describe, expect, it } from 'vitest';
import { Rng } from '@gridemu/runtime';
import { DagGrid, PAPER_003_GRID, SERVICES } from '../src/dag/dag-grid.js';

describe("paper 003's grid (§4)", () => {
  it('has 128 resources of 100 to 4000 MIPS over 4 sites, WAN latencies of 3 to 10 ms, the same for one seed', () => {
    const g = new DagGrid(PAPER_003_GRID, new Rng(7));
    expect(g.resources).toHaveLength(128);
    expect(g.sites).toEqual(['site1', 'site2', 'site3', 'site4']);
    for (const s of g.sites) expect(g.resources.filter((r) => r.site === s)).toHaveLength(32);
    expect(g.resources.every((r) => r.mips >= 100 && r.mips <= 4000)).toBe(true);
    const wan = [g.latency_s('cr1', 'cr2'), g.latency_s('cr1', SERVICES), g.latency_s('cr3', 'cr4')];
    expect(wan.every((l) => l >= 0.003 && l <= 0.01)).toBe(true);
    expect(g.latency_s('cr1', 'cr5')).toBe(0.001); // both at site1: the LAN
    expect(g.latency_s('cr2', 'cr1')).toBe(g.latency_s('cr1', 'cr2'));
    expect(new DagGrid(PAPER_003_GRID, new Rng(7)).resources).toEqual(g.resources);
  });

  it('prices a transfer and a migration (worked by hand)', () => {
    // Two sites, 5 ms between any two places, 1 Gbit/s: 1 MB takes 8 ms plus the latency.
    const g = new DagGrid(
      { ...PAPER_003_GRID, sites: 2, resources: 4, mips: [1000, 1000], wan_latency_ms: [5, 5] },
      new Rng(1),
    );
    expect(g.resources.map((r) => `${r.id}@${r.site}`)).toEqual(['cr1@site1', 'cr2@site2', 'cr3@site1', 'cr4@site2']);
    expect(g.transfer_s('cr1', 'cr1', 1e6)).toBe(0);
    expect(g.transfer_s('cr1', 'cr3', 1e6)).toBeCloseTo(0.001 + 0.008, 12);
    expect(g.transfer_s('cr1', 'cr2', 1e6)).toBeCloseTo(0.005 + 0.008, 12);
    // Checkpoint 0.5 s; checkpoint to the server (5 + 8 ms); checkpoint and one input on (5 + 16 ms).
    expect(g.migration_s('cr1', 'cr2', 1, 0.5)).toBeCloseTo(0.534, 12);
  });

  it('refuses a grid with a site and no resource', () => {
    expect(() => new DagGrid({ ...PAPER_003_GRID, sites: 4, resources: 3 }, new Rng(1))).toThrow(
      /at least one resource per site \(sites 4, resources 3\)/,
    );
  });
});
