import { describe, expect, it } from 'vitest';
import { partitionCut } from '../src/index.js';

describe('partitionCut', () => {
  it('counts a message on its way between a cut-off set and the rest while the cut was in force, never the driver', () => {
    expect(partitionCut([])).toBeUndefined();
    const cut = partitionCut([{ sites: ['s3'], from_s: 100, to_s: 200 }])!;
    expect(cut('s1', 's3', 150, 151)).toBe(true);
    expect(cut('s3', 's1', 150, 151)).toBe(true);
    expect(cut('s1', 's2', 150, 151)).toBe(false);
    expect(cut('s3', 's3', 150, 151)).toBe(false);
    // Before the cut and after it.
    expect(cut('s1', 's3', 90, 99)).toBe(false);
    expect(cut('s1', 's3', 200, 201)).toBe(false);
    // Sent before the cut (a late timer's handler sends from its due time) and held across it.
    expect(cut('s1', 's3', 99, 200)).toBe(true);
    // Sent in the cut, handled after it healed.
    expect(cut('s1', 's3', 199, 201)).toBe(true);
    // The delay proxies never hold the driver's messages, nor does the simulator (its location is none).
    expect(cut('driver', 's3', 150, 151)).toBe(false);
    expect(cut('s3', 'driver', 150, 151)).toBe(false);
  });
});
