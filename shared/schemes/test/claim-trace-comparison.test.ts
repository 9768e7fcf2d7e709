import { describe, expect, it } from 'vitest';
import { compareClaimTraces } from '../src/paper-001/claim-trace-comparison.js';

describe("paper 001's claim traces side by side (gridemu compare)", () => {
  it('round trips and times to grant, by hand', () => {
    const row = (time_s: number, job_id: string, location: string, event: string, detail = '') => ({
      time_s,
      job_id,
      location,
      event,
      detail,
    });
    const a = [
      row(0, 'j', 'o', 'copies.sent', 'to=x y'),
      row(1, 'j', 'x', 'claim.sent', 'claim=1 origin=o timeout_s=5'),
      row(2, 'j', 'y', 'claim.sent', 'claim=1 origin=o timeout_s=5'),
      row(4, 'j', 'x', 'claim.granted', 'claim=1'),
      row(8, 'j', 'y', 'claim.denied', 'claim=1'),
    ];
    const b = [
      row(0, 'j', 'o', 'copies.sent', 'to=x y'),
      row(1, 'j', 'x', 'claim.sent', 'claim=1 origin=o timeout_s=5'),
      row(11, 'j', 'x', 'claim.granted', 'claim=1'),
    ];
    const c = compareClaimTraces(a, b);
    // A's round trips are 3 s (x) and 6 s (y); B's one is 10 s. Copies to grant: 4 s against 11 s.
    expect(c.json.a.claim_round_trip_s).toMatchObject({ n: 2, median: 6, mean: 4.5 });
    expect(c.json.b.claim_round_trip_s).toMatchObject({ n: 1, median: 10 });
    expect(c.json.grant_delay.largest).toEqual([{ job: 'j', a: 4, b: 11 }]);
    expect(c.rows.find((r) => r.label === 'claim.sent per job')).toMatchObject({ a: 2, b: 1 });
    // Each copy's first claim: x's granted, y's denied in A; B's one granted.
    expect(c.json.a.first_claim_ended_by).toEqual({ 'claim.granted': 1, 'claim.denied': 1 });
    expect(c.rows.find((r) => r.label === 'first claims ended by claim.granted, share')).toMatchObject({
      a: 0.5,
      b: 1,
    });
  });
});
