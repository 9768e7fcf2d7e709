import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram, WindowCounts } from '../src/live.js';
import { histogramStates, nestedHistogramOf, histogramOf } from '../src/latency-histogram.js';
import { LinkMeter, timelineBin_s } from '../src/link-meter.js';

interface Delivery {
  readonly from: string;
  readonly to: string;
  readonly type: string;
  readonly sent_s: number;
  readonly felt_s: number;
  readonly arrived_s: number | undefined;
}

/**
 * What LinkMeter.recordDelivery must record, each histogram and count looked up by its keys: the
 * meter keeps them at hand per link and window, and must end with the same states.
 */
function plainMeter(deliveries: readonly Delivery[], speedup: number) {
  const felt = new Map<string, LatencyHistogram>();
  const nested = () => new Map<string, Map<string, LatencyHistogram>>();
  const [feltByType, arrivedByType, waitedByType, arrivedTimeline, waitedTimeline, localTimeline] = [
    nested(),
    nested(),
    nested(),
    nested(),
    nested(),
    nested(),
  ];
  const [arrivedCounts, waitedCounts, localCounts] = [new WindowCounts(), new WindowCounts(), new WindowCounts()];
  const bin = timelineBin_s(speedup);
  const ms = (s: number) => (Math.max(0, s) / speedup) * 1000;
  for (const d of deliveries) {
    const link = `${d.from}->${d.to}`;
    histogramOf(felt, link).record(ms(d.felt_s));
    nestedHistogramOf(feltByType, d.type, link).record(ms(d.felt_s));
    if (d.arrived_s !== undefined) {
      const sentIn = String(Math.floor(d.sent_s / bin));
      nestedHistogramOf(arrivedByType, d.type, link).record(ms(d.arrived_s));
      nestedHistogramOf(arrivedTimeline, link, sentIn).record(ms(d.arrived_s));
      arrivedCounts.add(d.type, link, sentIn);
      const waited_s = d.felt_s - d.arrived_s;
      const reachedIn = String(Math.floor((d.sent_s + Math.max(0, d.arrived_s)) / bin));
      nestedHistogramOf(waitedByType, d.type, link).record(ms(waited_s));
      nestedHistogramOf(waitedTimeline, link, reachedIn).record(ms(waited_s));
      waitedCounts.add(d.type, link, reachedIn);
    } else if (d.from === d.to) {
      const sentIn = String(Math.floor(d.sent_s / bin));
      nestedHistogramOf(localTimeline, link, sentIn).record(ms(d.felt_s));
      localCounts.add(d.type, link, sentIn);
    }
  }
  return states({
    felt,
    feltByType,
    arrivedByType,
    waitedByType,
    arrivedTimeline,
    waitedTimeline,
    localTimeline,
    arrivedWindowCounts: arrivedCounts,
    waitedWindowCounts: waitedCounts,
    localWindowCounts: localCounts,
  });
}

function states(m: {
  felt: ReadonlyMap<string, LatencyHistogram>;
  feltByType: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
  arrivedByType: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
  waitedByType: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
  arrivedTimeline: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
  waitedTimeline: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
  localTimeline: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
  arrivedWindowCounts: WindowCounts;
  waitedWindowCounts: WindowCounts;
  localWindowCounts: WindowCounts;
}) {
  const nestedStates = (n: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>) =>
    Object.fromEntries([...n].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, inner]) => [k, histogramStates(inner)]));
  return {
    felt: histogramStates(m.felt),
    feltByType: nestedStates(m.feltByType),
    arrivedByType: nestedStates(m.arrivedByType),
    waitedByType: nestedStates(m.waitedByType),
    arrivedTimeline: nestedStates(m.arrivedTimeline),
    waitedTimeline: nestedStates(m.waitedTimeline),
    localTimeline: nestedStates(m.localTimeline),
    arrivedCounts: m.arrivedWindowCounts.state(),
    waitedCounts: m.waitedWindowCounts.state(),
    localCounts: m.localWindowCounts.state(),
  };
}

const delivery = fc.record({
  from: fc.constantFrom('s1', 's2', 'driver'),
  to: fc.constantFrom('s1', 's2'),
  type: fc.constantFrom('job.copy', 'claim.request', 'load.report'),
  // Windows of 500 s at speed-up 1,000: sent times back and forth across a few of them.
  sent_s: fc.integer({ min: 0, max: 3000 }),
  felt_s: fc.integer({ min: 0, max: 900 }),
  arrived: fc.option(fc.integer({ min: 0, max: 900 }), { nil: undefined }),
});

describe('LinkMeter', () => {
  it('records each delivery where looking every histogram and count up by its keys would', () => {
    fc.assert(
      fc.property(fc.array(delivery, { maxLength: 60 }), (drawn) => {
        const deliveries: Delivery[] = drawn.map((d) => ({
          from: d.from,
          to: d.to,
          type: d.type,
          sent_s: d.sent_s,
          felt_s: d.felt_s,
          // A part never longer than the whole, as the runtime splits it.
          arrived_s: d.arrived === undefined ? undefined : Math.min(d.felt_s, d.arrived),
        }));
        const meter = new LinkMeter();
        for (const d of deliveries) meter.recordDelivery(d.from, d.to, d.type, d.sent_s, d.felt_s, d.arrived_s, 1000);
        expect(states(meter)).toEqual(plainMeter(deliveries, 1000));
      }),
      { seed: 33, numRuns: 300 },
    );
  });

  it('puts a delivery between two processes in the windows of its sending and of its reaching the mailbox', () => {
    const meter = new LinkMeter();
    // Speed-up 1,000: windows of 500 emulated s. Sent at 450 s, in the mailbox 100 s later (window 1), handled 50 s after.
    meter.recordDelivery('s1', 's2', 'job.copy', 450, 150, 100, 1000);
    meter.recordDelivery('s1', 's2', 'job.copy', 460, 10, 10, 1000);
    expect([...meter.arrivedTimeline.get('s1->s2')!.keys()]).toEqual(['0']);
    expect([...meter.waitedTimeline.get('s1->s2')!.keys()]).toEqual(['1', '0']);
    expect(meter.waitedWindowCounts.state()).toEqual({ 'job.copy': { 's1->s2': { 0: 1, 1: 1 } } });
    expect(meter.felt.get('s1->s2')!.stats()).toMatchObject({ count: 2, max_ms: 150 });
    // Between two actors of one location: on its own timeline, not split.
    meter.recordDelivery('s2', 's2', 'load.report', 1200, 5, undefined, 1000);
    expect(meter.localWindowCounts.state()).toEqual({ 'load.report': { 's2->s2': { 2: 1 } } });
    expect(meter.arrivedByType.get('load.report')).toBeUndefined();
  });
});
