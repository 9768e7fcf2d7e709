import { describe, expect, it } from 'vitest';
import { RoundTripEstimate } from '../src/live.js';

describe('RoundTripEstimate (RFC 6298 section 2)', () => {
  it('waits the floor until a round trip is measured', () => {
    expect(new RoundTripEstimate().timeout_ms(100)).toBe(100);
  });

  it('starts at the first round trip plus twice it, then smooths by 1/8 and 1/4', () => {
    const e = new RoundTripEstimate();
    e.measured(40); // srtt 40, rttvar 20: 40 + 80
    expect(e.timeout_ms(1)).toBe(120);
    e.measured(80); // rttvar 0.75*20 + 0.25*40 = 25; srtt 0.875*40 + 0.125*80 = 45: 45 + 100
    expect(e.timeout_ms(1)).toBe(145);
    expect(e.timeout_ms(200)).toBe(200);
  });

  it('settles at the floor when round trips are short and steady', () => {
    const e = new RoundTripEstimate();
    for (let i = 0; i < 100; i++) e.measured(2);
    expect(e.timeout_ms(100)).toBe(100);
  });
});
