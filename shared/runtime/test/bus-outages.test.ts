import { describe, expect, it } from 'vitest';
import { BusOutages, mergeOutages } from '../src/bus-outages.js';

describe('BusOutages', () => {
  it('tells a message on its way across a span the process was cut off from one that was not', () => {
    const o = new BusOutages();
    o.disconnected(100);
    // Handled after the cut began, sent before it: in flight when the server went away.
    expect(o.crossed(90, 101)).toBe(true);
    // Before the cut: handled before it.
    expect(o.crossed(80, 99)).toBe(false);
    o.reconnected(130);
    // A second disconnection before the reconnection is the same span.
    o.disconnected(140);
    o.disconnected(150);
    o.reconnected(160);
    expect(o.crossed(110, 135)).toBe(true);
    expect(o.crossed(131, 139)).toBe(false);
    expect(o.crossed(165, 170)).toBe(false);
    expect(o.spans(200)).toEqual([
      { from_s: 100, to_s: 130 },
      { from_s: 140, to_s: 160 },
    ]);
  });

  it('an open span ends now in the report, and a reconnection without a disconnection is no span', () => {
    const o = new BusOutages();
    o.reconnected(50);
    o.disconnected(100);
    expect(o.spans(120)).toEqual([{ from_s: 100, to_s: 120 }]);
    expect(o.crossed(200, 210)).toBe(true);
  });

  it("merges the processes' spans that overlap or touch into the run's outages", () => {
    expect(
      mergeOutages([
        { from_s: 10, to_s: 20 },
        { from_s: 500, to_s: 510 },
        { from_s: 12, to_s: 25 },
        { from_s: 25, to_s: 30 },
      ]),
    ).toEqual([
      { from_s: 10, to_s: 30 },
      { from_s: 500, to_s: 510 },
    ]);
  });

  it('keeps the outages on the run clock: none before its epoch, one begun before it starting there', () => {
    expect(
      mergeOutages(
        [
          { from_s: 40, to_s: 55 },
          { from_s: 42.7, to_s: 719 },
          { from_s: 800, to_s: 810 },
        ],
        61,
      ),
    ).toEqual([
      { from_s: 61, to_s: 719 },
      { from_s: 800, to_s: 810 },
    ]);
    expect(mergeOutages([{ from_s: 40, to_s: 61 }], 61)).toEqual([]);
  });
});
