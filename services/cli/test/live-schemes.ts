// Paper 001's schemes, each a live run of separate processes: the ones npm test runs
// (run-live.test.ts) and the rest, which npm run test:slow runs (test-slow/live-schemes.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Paper001Scheme } from '@gridemu/schemes';
import { describe, expect, it } from 'vitest';
import { gridemuLive, readSummary, smallSpec, tmp } from './live-helpers.js';
import { checkExactlyOnce } from './live-checks.js';

export function schemesRunLive(schemes: readonly Paper001Scheme[]): void {
  describe('gridemu run: every scheme of paper 001 as separate processes', () => {
    for (const scheme of schemes) {
      it(`${scheme}: every job has one row and ran at exactly one site`, async () => {
        const dir = tmp();
        const spec = smallSpec(dir, {
          scheme,
          policy: scheme === 'k-dual' ? 'dual-easy' : 'easy',
          latency_ms: 2,
          jitter_ms: 1,
        });
        const out = join(dir, 'out');
        const { code, err, out: stdout } = await gridemuLive(['run', spec, '--out', out, '--timeout', '90']).done;
        expect(code, err).toBe(0);
        expect(stdout).toContain(`live-test: ${scheme}`);
        checkExactlyOnce(out);
        const s = readSummary(out);
        expect(s.mode).toBe('run');
        // The driver, which writes it, says what made the run.
        expect(s.provenance).toMatchObject({ gridemu: '0.1.0', node: process.version });
        expect(s.jobs.unfinished).toBe(0);
        expect(s.counters['messages.malformed'] ?? 0).toBe(0);
        const processes = Object.keys(s.live.processes).sort();
        const expected =
          scheme === 'unified'
            ? ['driver', 'unified']
            : [
                'driver',
                's1',
                's2',
                's3',
                ...(scheme === 'centralized' || scheme === 'hierarchical' ? ['central'] : []),
              ];
        expect(processes).toEqual(expected.sort());
        for (const [name, p] of Object.entries(
          s.live.processes as Record<string, { rss_mb: number; cpu_s: number; run_cpu_s?: number }>,
        )) {
          expect(p.rss_mb, name).toBeGreaterThan(10);
          // The run's own CPU is part of the process's, which adds start-up and the warm-up to it.
          expect(p.run_cpu_s, name).toBeGreaterThan(0);
          expect(p.run_cpu_s!, name).toBeLessThan(p.cpu_s);
        }
        // Each process ran its warm-up grid before the clock started (warm-up.ts).
        for (const [name, p] of Object.entries(
          s.live.processes as Record<string, { warm_up?: { jobs: number; finished: number } }>,
        )) {
          expect(p.warm_up?.jobs, name).toBeGreaterThan(0);
          // Its grid worked (under a wrong user none would finish); how many finish within the
          // warm-up's time budget depends on the machine's load, so that is not asserted.
          expect(p.warm_up?.finished, name).toBeGreaterThan(0);
          expect(p.warm_up?.finished, name).toBeLessThanOrEqual(p.warm_up!.jobs);
        }
        if (scheme !== 'independent' && scheme !== 'unified') {
          // The proxies apply 2 ± 1 ms on every cross-site link; loopback and the event loops add a little.
          expect(s.live.latency_ms.count).toBeGreaterThan(0);
          expect(s.live.latency_ms.min_ms).toBeGreaterThanOrEqual(0.99);
          expect(s.live.latency_ms.mean_ms).toBeGreaterThan(1.8);
        }
        // The fidelity guard: 50,000x makes a hop of a millisecond or two over a minute of emulated
        // time, far more than 5% of these jobs' median run (and the claim timeout, the load period).
        expect(s.live.fidelity.measured.warnings.length).toBeGreaterThan(0);
        expect(s.live.fidelity.measured.recommended_speedup).toBeLessThan(50000);
        expect(s.live.fidelity.before.hop_ms).toBeGreaterThan(0);
        expect(s.live.fidelity.timescales.median_run_s).toBeGreaterThan(0);
        expect(stdout).toContain('FIDELITY WARNING (measured in the run)');
        // Window by window (backlog-windows.ts): how many fell behind depends on the machine's load,
        // but the verdict is there, consistent, and printed exactly when some window fell behind.
        const backlog = s.live.fidelity.measured.backlog;
        expect(backlog.windows_behind).toBeLessThanOrEqual(backlog.windows);
        expect(backlog.jobs_share).toBeGreaterThanOrEqual(0);
        expect(backlog.jobs_share).toBeLessThanOrEqual(1);
        expect(backlog.judged_beyond_ms).toBeGreaterThanOrEqual(0);
        expect(/timers fell (further )?behind/.test(stdout)).toBe(backlog.windows_behind > 0);
        if (scheme === 'k-distributed') {
          expect(Object.keys(s.live.fidelity.timescales).sort()).toEqual([
            'median_run_s',
            'meta.claim_timeout_s',
            'meta.load_period_s',
          ]);
          // The network the run had, replayed by the simulator: the delay each link felt,
          // from the driver, between the sites and within each, at its mean in emulated seconds.
          const replay = join(dir, 'replay');
          const sim = await gridemuLive(['simulate', spec, '--network-from', out, '--out', replay, '--quiet']).done;
          expect(sim.code, sim.err).toBe(0);
          // The spec the live run's summary holds is the one replayed: no note of another experiment.
          expect(sim.err).not.toContain('the experiment replayed differs');
          const r = readSummary(replay);
          const network = JSON.parse(readFileSync(join(out, 'network.json'), 'utf8')) as {
            links: Record<string, { count: number; sum_ms: number }>;
            types: Record<string, Record<string, { count: number }>>;
            mailbox: {
              waited_by_type: Record<string, Record<string, { count: number }>>;
              arrived_timeline: {
                bin_s: number;
                links: Record<string, Record<string, { count: number }>>;
                counts_by_type: Record<string, Record<string, Record<string, number>>>;
              };
              waited_timeline: {
                bin_s: number;
                links: Record<string, Record<string, { count: number }>>;
                counts_by_type: Record<string, Record<string, Record<string, number>>>;
              };
              timer_fire_lag: { count: number };
              timer_fire_timeline: { bin_s: number; locations: Record<string, Record<string, { count: number }>> };
              local_timeline: { bin_s: number; links: Record<string, Record<string, { count: number }>> };
            };
          };
          const felt = network.links;
          expect(Object.keys(felt)).toEqual(
            expect.arrayContaining(['driver->s1', 's1->driver', 's1->s1', 's1->s2', 's2->s1']),
          );
          // The same deliveries by message type: load reports and job copies cross apart, and add up to the link.
          expect(Object.keys(network.types)).toEqual(expect.arrayContaining(['load.report', 'job.copy']));
          for (const [link, l] of Object.entries(felt))
            expect(Object.values(network.types).reduce((n, links) => n + (links[link]?.count ?? 0), 0)).toBe(l.count);
          expect(Object.keys(r.network_from.links).sort()).toEqual(Object.keys(felt).sort());
          for (const [link, l] of Object.entries(felt))
            expect(r.network_from.links[link]).toBeCloseTo((l.sum_ms / l.count) * (s.live.speedup / 1000), 0);
          // What crossed between sites felt at least the wire latency the summary reports.
          expect(r.network_from.links['s1->s2']).toBeGreaterThanOrEqual(
            (s.live.latency_ms.links['s1->s2'].min_ms * s.live.speedup) / 1000,
          );
          expect(r.jobs.unfinished).toBe(0);
          // Every wait between processes is in the waits' timeline too, in the arrivals' windows.
          const { mailbox } = network;
          expect(mailbox.waited_timeline.bin_s).toBe(mailbox.arrived_timeline.bin_s);
          const total = (m: Record<string, Record<string, { count: number }>>) =>
            Object.values(m).reduce((n, inner) => n + Object.values(inner).reduce((k, h) => k + h.count, 0), 0);
          expect(total(mailbox.waited_timeline.links)).toBe(total(mailbox.waited_by_type));
          // ...and every process's counts by type, merged: as many as each type's waits on each link.
          for (const [type, links] of Object.entries(mailbox.waited_by_type))
            for (const [link, h] of Object.entries(links))
              for (const t of [mailbox.arrived_timeline, mailbox.waited_timeline])
                expect(Object.values(t.counts_by_type[type]?.[link] ?? {}).reduce((n, k) => n + k, 0)).toBe(h.count);
          // Every timer's lateness is on its location's timeline, and every message between two
          // actors of one process on that process's own.
          expect(total(mailbox.timer_fire_timeline.locations)).toBe(mailbox.timer_fire_lag.count);
          const local = Object.entries(felt).filter(([link]) => link.split('->')[0] === link.split('->')[1]);
          expect(total(mailbox.local_timeline.links)).toBe(local.reduce((n, [, l]) => n + l.count, 0));
          // By default each message crosses in two parts, to the mailbox and its wait there; asked
          // for whole delays, the replay draws each message's felt delay at once.
          expect(r.network_from.delays).toBe('arrival, then mailbox wait');
          expect(r.network_from.mailbox).toBeDefined();
          const whole = join(dir, 'replay-whole');
          const wholeRun = await gridemuLive([
            'simulate',
            spec,
            '--network-from',
            out,
            '--whole-delays',
            '--out',
            whole,
            '--quiet',
          ]).done;
          expect(wholeRun.code, wholeRun.err).toBe(0);
          expect(readSummary(whole).network_from.delays).toBe('whole felt delay');
          expect(readSummary(whole).network_from.mailbox).toBeUndefined();
          expect(readSummary(whole).jobs.unfinished).toBe(0);
          // Seeds vary the replay's network draws only: the same jobs, the live run's seed, another draw.
          const seeds = await gridemuLive([
            'simulate',
            spec,
            '--network-from',
            out,
            '--seeds',
            '2',
            '--out',
            join(dir, 'replays'),
            '--quiet',
          ]).done;
          expect(seeds.code, seeds.err).toBe(0);
          const [r1, r2] = [
            readSummary(join(dir, 'replays', `seed-${s.seed}`)),
            readSummary(join(dir, 'replays', `seed-${s.seed + 1}`)),
          ];
          expect([r1.seed, r2.seed]).toEqual([s.seed, s.seed]);
          expect([r1.network_from.network_seed, r2.network_from.network_seed]).toEqual([s.seed, s.seed + 1]);
          expect(r2.jobs.submitted).toBe(r1.jobs.submitted);
          // The live run and its replays submitted one workload: the driver's digest is the simulator's.
          expect(s.jobs_sha256).toMatch(/^[0-9a-f]{64}$/);
          expect([r1.jobs_sha256, r2.jobs_sha256]).toEqual([s.jobs_sha256, s.jobs_sha256]);
          const missing = await gridemuLive(['simulate', spec, '--network-from', dir, '--out', replay, '--quiet']).done;
          expect(missing.code).toBe(2);
          expect(missing.err).toMatch(
            /--network-from: .*network\.json not found; it takes the results folder of a gridemu run/,
          );
        }
      });
    }
  });
}
