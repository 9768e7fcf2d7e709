import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { decodeControl, encodeControl, PROTOCOL_VERSION, type ControlMessage } from '../src/wire.js';

const report = {
  pid: 7,
  rss_mb: 80,
  peak_rss_mb: 81,
  cpu_s: 1.5,
  messages: { all: { 'load.report': 3 }, cross_site: {} },
  counters: { 'claims.denied': 2 },
  latency: { 'a->b': { count: 1, sum_ms: 20, min_ms: 20, max_ms: 20, buckets: { '229': 1 } } },
  timer_lag: { count: 0, sum_ms: 0, min_ms: 0, max_ms: 0, buckets: {} },
};

describe('control messages', () => {
  it('round-trip every kind', () => {
    const all: ControlMessage[] = [
      { kind: 'hello', member: 's1' },
      { kind: 'plan', experiment: { name: 'x', meta: { k: 2 } } },
      { kind: 'ready', member: 's1', pid: 1, http: '127.0.0.1:9464' },
      { kind: 'serving', member: 'driver', http: '127.0.0.1:40123' },
      { kind: 'start', epoch_s: 0, wallEpoch_ms: 1e12, speedup: 1000 },
      { kind: 'heartbeat', member: 's1', rss_mb: 80 },
      { kind: 'failed', member: 's1', error: 'boom' },
      { kind: 'progress', finished: 1, total: 2, now_s: 3, wall_s: 4 },
      { kind: 'end' },
      { kind: 'abort', reason: 'why' },
      {
        kind: 'rejoined',
        member: 's2',
        rejoin: { incarnation: 2, down_from_s: 100, rejoined_s: 2600, catch_up_wall_ms: 480, replayed_entries: 12 },
      },
      { kind: 'welcomed', member: 's2', incarnation: 2 },
      { kind: 'tally' },
      { kind: 'tallied', tally: { counters: { 'faults.crashes_applied': 2 }, unplanned_restarts: { s2: 1 } } },
      { kind: 'report', member: 's1', report },
      { kind: 'report', member: 's1', report: { ...report, run_cpu_s: 0.75 } },
      {
        kind: 'report',
        member: 's1',
        report: { ...report, felt_by_type: { 'job.copy': { 's1->s2': report.timer_lag } } },
      },
      {
        kind: 'report',
        member: 's1',
        report: {
          ...report,
          mailbox: {
            arrived_by_type: { 'job.copy': { 's1->s2': report.timer_lag } },
            waited_by_type: { 'job.copy': { 's1->s2': report.timer_lag } },
            timer_fire_lag: report.timer_lag,
            arrived_timeline: {
              bin_s: 10_000,
              links: { 's1->s2': { '60': report.timer_lag } },
              counts_by_type: { 'job.copy': { 's1->s2': { '60': 1 } } },
            },
            waited_timeline: { bin_s: 10_000, links: { 's1->s2': { '61': report.timer_lag } } },
            timer_fire_timeline: { bin_s: 10_000, locations: { s1: { '60': report.timer_lag } } },
            local_timeline: {
              bin_s: 10_000,
              links: { 's1->s1': { '60': report.timer_lag } },
              counts_by_type: { 'job.copy': { 's1->s1': { '60': 1 } } },
            },
          },
        },
      },
    ];
    for (const m of all) expect(decodeControl(encodeControl('r', m), 'r')).toEqual({ ok: true, msg: m });
  });

  it('refuses another run, another version, unknown kinds, wrong fields and malformed reports', () => {
    const reason = (bytes: Uint8Array) => {
      const d = decodeControl(bytes, 'r');
      return d.ok ? 'accepted' : d.reason;
    };
    expect(reason(encodeControl('other', { kind: 'end' }))).toMatch(/another run/);
    expect(reason(encode({ v: PROTOCOL_VERSION + 1, run: 'r', kind: 'end' }))).toMatch(/protocol version/);
    expect(reason(encode({ v: PROTOCOL_VERSION, run: 'r', kind: 'reboot' }))).toMatch(/unknown control kind/);
    expect(reason(encode({ v: PROTOCOL_VERSION, run: 'r', kind: 'ready', member: 's1', pid: '1', http: '' }))).toMatch(
      /ready.pid/,
    );
    expect(reason(encode({ v: PROTOCOL_VERSION, run: 'r', kind: 'plan', experiment: 'name: x' }))).toMatch(
      /plan.experiment/,
    );
    expect(
      reason(
        encode({
          v: PROTOCOL_VERSION,
          run: 'r',
          kind: 'tallied',
          tally: { counters: { a: 'x' }, unplanned_restarts: {} },
        }),
      ),
    ).toMatch(/tallied.tally/);
    expect(
      reason(
        encode({
          v: PROTOCOL_VERSION,
          run: 'r',
          kind: 'report',
          member: 's1',
          report: { ...report, counters: { x: 'y' } },
        }),
      ),
    ).toMatch(/report.counters/);
    expect(
      reason(
        encode({ v: PROTOCOL_VERSION, run: 'r', kind: 'report', member: 's1', report: { ...report, run_cpu_s: '2' } }),
      ),
    ).toMatch(/run_cpu_s must be a number/);
    expect(reason(encode({ v: PROTOCOL_VERSION, run: 'r', kind: 'serving', member: 'driver' }))).toMatch(
      /serving.http/,
    );
    expect(
      reason(
        encode({
          v: PROTOCOL_VERSION,
          run: 'r',
          kind: 'report',
          member: 's1',
          report: { ...report, felt_by_type: { 'job.copy': { 's1->s2': { count: 1 } } } },
        }),
      ),
    ).toMatch(/report.felt_by_type.job.copy.s1->s2 is malformed/);
    const withMailbox = (mailbox: unknown) =>
      reason(encode({ v: PROTOCOL_VERSION, run: 'r', kind: 'report', member: 's1', report: { ...report, mailbox } }));
    const split = {
      arrived_by_type: { 'job.copy': { 's1->s2': report.timer_lag } },
      waited_by_type: {},
      timer_fire_lag: report.timer_lag,
    };
    const { waited_by_type: _waited, ...withoutWaits } = split;
    expect(withMailbox(withoutWaits)).toMatch(/report.mailbox.waited_by_type is missing/);
    expect(withMailbox({ ...split, waited_by_type: 3 })).toMatch(/report.mailbox.waited_by_type must be a map/);
    expect(withMailbox({ ...split, timer_fire_lag: { count: 1 } })).toMatch(
      /report.mailbox.timer_fire_lag is malformed/,
    );
    expect(withMailbox({ ...split, arrived_timeline: { bin_s: 0, links: {} } })).toMatch(/positive bin_s/);
    expect(
      withMailbox({ ...split, arrived_timeline: { bin_s: 1, links: { 's1->s2': { '3': { count: 1 } } } } }),
    ).toMatch(/report.mailbox.arrived_timeline.links.s1->s2.3 is malformed/);
    expect(withMailbox({ ...split, waited_timeline: { bin_s: 0, links: {} } })).toMatch(
      /mailbox.waited_timeline must have a positive bin_s/,
    );
    expect(
      withMailbox({ ...split, waited_timeline: { bin_s: 1, links: { 's1->s2': { '3': { count: 1 } } } } }),
    ).toMatch(/report.mailbox.waited_timeline.links.s1->s2.3 is malformed/);
    expect(
      withMailbox({
        ...split,
        waited_timeline: { bin_s: 1, links: {}, counts_by_type: { 'job.copy': { 's1->s2': { '3': 'x' } } } },
      }),
    ).toMatch(/report.mailbox.waited_timeline.counts_by_type must map message type → link → window → count/);
    expect(withMailbox({ ...split, timer_fire_timeline: { bin_s: 0, locations: {} } })).toMatch(
      /mailbox.timer_fire_timeline must have a positive bin_s/,
    );
    expect(
      withMailbox({ ...split, timer_fire_timeline: { bin_s: 1, locations: { s1: { '3': { count: 1 } } } } }),
    ).toMatch(/report.mailbox.timer_fire_timeline.locations.s1.3 is malformed/);
    expect(withMailbox({ ...split, local_timeline: { bin_s: 1, links: { 's1->s1': { '3': { count: 1 } } } } })).toMatch(
      /report.mailbox.local_timeline.links.s1->s1.3 is malformed/,
    );
    expect(reason(new Uint8Array([0xc1]))).toMatch(/not msgpack/);
    expect(reason(encode([1, 2]))).toMatch(/not a map/);
  });
});
