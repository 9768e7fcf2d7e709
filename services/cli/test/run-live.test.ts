import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  REPO,
  gridemuLive,
  NEVER_ENDING_SPEC,
  NEVER_ENDING_STOP,
  readCheck,
  readSummary,
  RUN_LIMIT_S,
  RUN_TEST_LIMIT_MS,
  runLiveLines,
  smallSpec,
  TEST_WARM_UP_JOBS,
  tmp,
} from './live-helpers.js';
import { checkExactlyOnce, checkProtocolTrace, clockStarted, LIVE_DAG } from './live-checks.js';
import { schemesRunLive } from './live-schemes.js';

// The schemes with a process of their own (central), two queues (k-dual), and the K copies with
// their replay; the rest in npm run test:slow (test-slow/live-schemes.test.ts).
schemesRunLive(['hierarchical', 'k-distributed', 'k-dual']);

describe('gridemu run: GRUBER (paper 002) with two decision points over 20 ms links', () => {
  it("monitor reports and queries cross NATS; the engines' view is as old as the latency makes it; a misbehaving site starves jobs until re-planned; every job runs once", async () => {
    const dir = tmp();
    const spec = join(dir, 'gruber.yaml');
    writeFileSync(
      spec,
      [
        'name: live-gruber',
        'sites: [{ id: s1, cpus: 8 }, { id: s2, cpus: 8, speed: 2 }, { id: s3, cpus: 16, speed: 0.5 }]',
        'workload:',
        '  - { name: blast, blast: { vo: ivdgl, submitters: 2, jobs: 15, runtime_s: 600 } }',
        '  - { name: local, site: s3, vo: atlas, synthetic: { jobs: 20, uhi: 2 } }',
        'meta:',
        '  scheme: gruber',
        '  selector: G-LU',
        '  decision_points: 2',
        '  monitor_period_s: 60',
        '  query_timeout_s: 600 # a round trip is 200 emulated s here: 20 ms each way at speed-up 5000',
        '  vos: { ivdgl: { group_share: 50 }, atlas: {} }',
        '  site_policy: { "*": { ivdgl: { cpu: 50, burst: 75 }, atlas: { cpu: 50 } } }',
        '  # s1 starts no grid job from about 1 s on; s2 is a Condor pool with 300 s cycles.',
        '  misbehaving: { sites: [s1], mean_episode_s: 1e9, mean_between_s: 1 }',
        '  managers: { s2: condor }',
        'network: { latency_ms: 20 }',
        `live: { speedup: 5000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
      ].join('\n') + '\n',
    );
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive(['run', spec, '--out', out, '--timeout', '120']).done;
    expect(code, err).toBe(0);
    checkExactlyOnce(out);
    const s = readSummary(out);
    expect(Object.keys(s.live.processes).sort()).toEqual(['driver', 'gruber', 'gruber-2', 's1', 's2', 's3', 'submit']);
    expect(s.gruber.comp_pct).toBe(100);
    // G-LU's least-used site is s1 at first: what it sent there starved and went elsewhere.
    expect(s.gruber.starved).toBeGreaterThan(0);
    expect(s.messages.cross_site_by_type['gruber.usage']).toBeGreaterThan(0);
    expect(s.messages.cross_site_by_type['gruber.query']).toBeGreaterThan(0);
    expect(s.messages.cross_site_by_type['gruber.decision']).toBeGreaterThan(0);
    // 20 ms one way is 100 emulated seconds at this speed-up: no report can be younger when used.
    expect(s.gruber.view_age.decisions).toBeGreaterThan(0);
    expect(s.gruber.view_age.mean_s).toBeGreaterThan(90);
    expect(s.live.latency_ms.mean_ms).toBeGreaterThan(19);
  });
});

describe('gridemu run under faults (issue 11)', { timeout: RUN_TEST_LIMIT_MS }, () => {
  it('a fault timed before the first submission is refused alike by simulate and by run, naming the field and that time, before run starts a process', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 2, jobs: 10 });
    // The synthetic jobs start an hour and more in (shift_h and arrivals): a crash at 1 s is before them.
    writeFileSync(
      spec,
      readFileSync(spec, 'utf8').replace(/shift_h: 0/, 'shift_h: 1') +
        'faults:\n  crash: [{ process: s2, at_s: 1, down_s: 100 }]\n',
    );
    const field = /faults\.crash\[0\]\.at_s: is 1 s, before the first submission at \d+(\.\d+)? s/;
    const simulated = await gridemuLive(['simulate', spec, '--out', join(dir, 'sim'), '--quiet']).done;
    expect(simulated.code).toBe(2);
    expect(simulated.err).toMatch(field);
    const live = await gridemuLive(['run', spec, '--out', join(dir, 'live'), '--quiet', '--timeout', '60']).done;
    expect(live.code, live.err).toBe(2);
    expect(live.err).toMatch(field);
    // Refused before anything started: no server, no process, no results folder.
    expect(live.err).not.toMatch(/driver/);
    expect(existsSync(join(dir, 'live'))).toBe(false);
  });

  it('a partition held by the delay proxies, 5% loss and a nats-server restart: no job lost, each runs once, the check passes', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, {
      sites: 4,
      jobs: 40,
      scheme: 'k-distributed',
      k: 4,
      latency_ms: 5,
      jitter_ms: 1,
      speedup: 20000,
    });
    writeFileSync(
      spec,
      readFileSync(spec, 'utf8') +
        'faults:\n  partition: [{ sites: [s2], from_s: 3600, to_s: 30000 }]\n  drop: 0.05\n  nats_restart: [{ at_s: 20000, down_s: 2000 }]\n',
    );
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive([
      'run',
      spec,
      '--out',
      out,
      '--set',
      'meta.claim_timeout_s=400',
      '--set',
      'protocol_trace=true',
      '--timeout',
      String(RUN_LIMIT_S),
    ]).done;
    expect(code, err).toBe(0);
    checkExactlyOnce(out);
    const s = readSummary(out);
    checkProtocolTrace(out, s);
    expect(readCheck(out).ok).toBe(true);
    expect(s.faults.messages_held_by_partition).toBeGreaterThan(0);
    expect(s.faults.messages_dropped).toBeGreaterThan(0);
    expect(s.faults.nats_restarts).toEqual({ asked: 1, applied: 1 });
    // Durable messages went out with ids and acknowledgements; any resent copy was delivered once.
    expect(s.counters['bus.published']).toBeGreaterThan(0);
    // Through delay proxies that drop and hold messages, some of them batched per subject.
    expect(s.counters['bus.nats_messages']).toBeGreaterThan(0);
    // The processes were cut off from the bus from the stop at 20,000 s until after the start at
    // 22,000 s (the clocks of one machine agree to well under the 100 s allowed here): one outage.
    const network = JSON.parse(readFileSync(join(out, 'network.json'), 'utf8')) as {
      outages: { from_s: number; to_s: number }[];
    };
    expect(network.outages).toHaveLength(1);
    expect(network.outages[0]!.from_s).toBeGreaterThan(19_900);
    expect(network.outages[0]!.to_s).toBeGreaterThan(21_900);
    expect(s.live!['bus_outages']).toEqual(network.outages);
    // Its replay holds what the processes sent each other meanwhile, at the times the run had.
    const replay = join(dir, 'replay');
    const sets = ['--set', 'meta.claim_timeout_s=400', '--set', 'protocol_trace=true'];
    const replayed = await gridemuLive(['simulate', spec, ...sets, '--network-from', out, '--out', replay, '--quiet'])
      .done;
    expect(replayed.code, replayed.err).toBe(0);
    expect(readSummary(replay).counters['faults.bus_outages']).toBe(1);
    // The same file and sets: its replay, nothing said; another seed is another workload, and said.
    expect(replayed.err).not.toContain('the experiment replayed differs');
    const other = await gridemuLive([
      'simulate',
      spec,
      ...sets,
      '--set',
      'seed=99',
      '--network-from',
      out,
      '--out',
      join(dir, 'other'),
      '--quiet',
    ]).done;
    expect(other.code, other.err).toBe(0);
    expect(other.err).toMatch(/the experiment replayed differs from the one .* in seed \d+ → 99: /);
  });

  it('site processes killed and restarted, the origin among them: each replays its journal, no job lost, one grant per job, the check passes', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, {
      sites: 4,
      jobs: 40,
      scheme: 'k-distributed',
      k: 4,
      latency_ms: 2,
      jitter_ms: 0,
      speedup: 20000,
    });
    writeFileSync(
      spec,
      readFileSync(spec, 'utf8') +
        'faults:\n  crash:\n    - { process: s1, at_s: 6000, down_s: 3000 }\n    - { process: s2, at_s: 14000, down_s: 2000 }\n    - { process: s1, at_s: 26000, down_s: 2000 }\n  drop: 0.01\n',
    );
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive([
      'run',
      spec,
      '--out',
      out,
      '--set',
      'meta.claim_timeout_s=400',
      '--timeout',
      String(RUN_LIMIT_S),
    ]).done;
    expect(code, err).toBe(0);
    expect(err).toMatch(/killed s1 \(pid \d+\) at emulated \d+ s \(faults\.crash\)/);
    const s = readSummary(out);
    expect(readCheck(out).ok).toBe(true);
    expect(s.faults.crashes_applied).toBe(3);
    expect(s.jobs.completed).toBe(s.jobs.submitted);
    // The origins' semaphores came back from their journals: never granted twice.
    expect(s.counters['claims.granted']).toBe(s.jobs.submitted);
    expect(s.counters['journal.replayed_entries']).toBeGreaterThan(0);
    const rejoined = readFileSync(join(out, 'logs', 's1.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('rejoined the run'));
    // Twice if the second kill finds it past its start-up; a kill during start-up is followed by another restart.
    expect(rejoined.length).toBeGreaterThanOrEqual(1);
    // Each restart that caught up is in summary.json, with its time down and its catching up...
    const rejoins = s.live.rejoins as {
      process: string;
      down_from_s: number;
      rejoined_s: number;
      catch_up_wall_s: number;
      heard_s: number;
    }[];
    expect(rejoins.length).toBeGreaterThanOrEqual(1);
    const crashes = [
      { process: 's1', at_s: 6000, down_s: 3000 },
      { process: 's2', at_s: 14000, down_s: 2000 },
      { process: 's1', at_s: 26000, down_s: 2000 },
    ];
    for (const r of rejoins) {
      expect(r.rejoined_s).toBeGreaterThanOrEqual(r.down_from_s);
      expect(r.catch_up_wall_s).toBeGreaterThan(0);
      // The driver heard it back after its recovery began: what waited for it was sent again then.
      expect(r.heard_s).toBeGreaterThanOrEqual(r.rejoined_s);
      // Back no earlier than its crash's plan has it: its successor, started ahead, waits for then.
      // (A kill's timer may fire a millisecond early: 20 emulated s at this speed-up.)
      const crash = crashes.filter((c) => c.process === r.process && c.at_s <= r.down_from_s + 100).at(-1)!;
      expect(r.rejoined_s).toBeGreaterThanOrEqual(crash.at_s + crash.down_s);
    }
    // The first successor was started before the run, standing by, and took over once s1 was dead.
    expect(readFileSync(join(out, 'logs', 's1.log'), 'utf8')).toContain('standby taking over');
    // ...and in network.json, so that a replay crashes the same processes when they were down live.
    const network = JSON.parse(readFileSync(join(out, 'network.json'), 'utf8')) as {
      crashes: { to_s: number; resent_s: number }[];
    };
    expect(network.crashes).toHaveLength(rejoins.length);
    // With when the run heard each restart (recorded for a replay; not yet replayed, docs/faults.md).
    for (const c of network.crashes) expect(c.resent_s).toBeGreaterThanOrEqual(c.to_s);
    const replay = join(dir, 'replay');
    const replayed = await gridemuLive(['simulate', spec, '--network-from', out, '--out', replay, '--quiet']).done;
    expect(replayed.code, replayed.err).toBe(0);
    const r = readSummary(replay);
    expect(r.faults.crashes).toBe(rejoins.length);
    expect(r.spec.faults.crash.map((c: { process: string }) => c.process)).toEqual(rejoins.map((j) => j.process));
  });
});

/**
 * A four-site run with live.journal, started, and s2's pid once its clock has run a moment: for
 * the tests that do something to s2 from outside gridemu run.
 */
async function journaledRunWithS2Running() {
  const dir = tmp();
  const spec = smallSpec(dir, { sites: 4, jobs: 40, scheme: 'k-distributed', k: 2, speedup: 10000 });
  writeFileSync(spec, readFileSync(spec, 'utf8').replace(/^live: \{ (.*) \}$/m, 'live: { $1, journal: true }'));
  const out = join(dir, 'out');
  const run = gridemuLive(['run', spec, '--out', out, '--timeout', String(RUN_LIMIT_S)]);
  const log = join(out, 'logs', 's2.log');
  let pid: number | undefined;
  // A generous bound for start-up on a busy machine; a run that works is there in a few seconds.
  for (let i = 0; i < 1200 && pid === undefined; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    if (text.includes('clock started'))
      pid = (JSON.parse(text.split('\n').find((l) => l.includes('member process up'))!) as { pid: number }).pid;
  }
  expect(pid, 's2 never started its clock').toBeDefined();
  await new Promise((r) => setTimeout(r, 400));
  return { out, run, log, pid: pid! };
}

describe('gridemu run, a process killed from outside (live.journal, issue 11)', { timeout: RUN_TEST_LIMIT_MS }, () => {
  it('kill -9 of a site mid-run: gridemu run starts it again, it rejoins from its journal, and the run ends with its check passing', async () => {
    const { out, run, log, pid } = await journaledRunWithS2Running();
    // Kill it as a user (or the OOM killer) would.
    process.kill(pid, 'SIGKILL');
    const { code, err } = await run.done;
    expect(code, err).toBe(0);
    expect(err).toMatch(/s2 \(pid \d+\) was killed by SIGKILL; starting it again to rejoin from its journal/);
    const s = readSummary(out) as ReturnType<typeof readSummary> & {
      live: { unplanned_restarts?: Record<string, number> };
    };
    expect(s.live.unplanned_restarts).toEqual({ s2: 1 });
    expect(readCheck(out).ok).toBe(true);
    expect(s.jobs.completed).toBe(s.jobs.submitted);
    expect(readFileSync(log, 'utf8')).toContain('rejoined the run');
  });
});

describe('gridemu run, stopped by a signal', () => {
  // SIGINT to gridemu run alone; SIGTERM to its whole process group, as `timeout` or `kill -- -PGID`
  // send it: nats-server goes at once, and the driver (signalled twice) must still write and exit.
  it.each([
    ['SIGINT', 'gridemu run'],
    ['SIGTERM', 'its process group'],
  ] as const)(
    '%s to %s: stops every process, keeps what the driver had, says it failed, and claims no check it did not make',
    async (signal, to) => {
      const dir = tmp();
      // Far more emulated time than the test waits: the run is mid-way when it is interrupted.
      const spec = smallSpec(dir, { sites: 3, jobs: 2000, speedup: 200 });
      const out = join(dir, 'out');
      const group = to === 'its process group';
      const run = gridemuLive(['run', spec, '--out', out, '--timeout', '300'], group);
      await clockStarted(out);
      if (group) process.kill(-run.child.pid!, signal);
      else run.child.kill(signal);
      const { code, err, out: stdout } = await run.done;
      expect(code, err).toBe(1);
      // Signalled with its group, nats-server stops too (exit code 1 on SIGTERM), and on busy cores
      // gridemu run may learn of that before it handles its own signal (seen once in npm test
      // beside two other loads): either is the run's true stop.
      expect(err).toMatch(
        group
          ? /gridemu: run failed: (interrupted by SIGTERM|the run's nats-server \(pid \d+\) exited during the run \(exit code 1\))\n/
          : /gridemu: run failed: interrupted by SIGINT\n/,
      );
      const s = readSummary(out);
      // gridemu run tells the driver why, and its word wins if it comes before the results are
      // written. Signalled with its group, every process stops at once, and on a busy machine the
      // driver may have written them on its own signal, or a site's, before it is told.
      expect(s.live.aborted).toMatch(
        group
          ? /^(interrupted by SIGTERM|the driver got SIGTERM|process "s\d" failed: stopped by a signal during the run|the run's nats-server \(pid \d+\) exited during the run \(exit code 1\))$/
          : /^interrupted by SIGINT$/,
      );
      expect(s.jobs.unfinished).toBeGreaterThan(0);
      // An aborted run asks for no reports: the summary says whose messages and latency it lacks
      // rather than show them as none.
      expect([...(s.live.missing_reports as string[])].sort()).toEqual(['s1', 's2', 's3']);
      expect(stdout).toContain('no report from ');
      expect(stdout).toContain(' (an aborted run asks for none): the messages and latency counted above and below');
      // Not checked, so no check.json, and the list of what was written does not name one.
      expect(existsSync(join(out, 'check.json'))).toBe(false);
      expect(stdout).toContain(`wrote ${join(out, 'jobs.csv')}`);
      expect(stdout).not.toContain('check.json');
      // Checked by hand, it says first that the run was stopped: its unfinished jobs break "no job
      // lost" without the scheme having lost them.
      const checked = await gridemuLive(['check', out]).done;
      expect(checked.code, checked.err).toBe(1);
      expect(checked.out).toContain(
        `note    the run was aborted (${s.live.aborted as string}): the jobs it had not finished`,
      );
      expect(checked.out).toMatch(/BROKEN {2}no job lost/);
      // Its replay is told that the delays it draws were measured over part of the run.
      const replay = await gridemuLive([
        'simulate',
        spec,
        '--network-from',
        out,
        '--out',
        join(dir, 'replay'),
        '--quiet',
      ]).done;
      expect(replay.code, replay.err).toBe(0);
      expect(replay.err).toContain(`${out} is a run that was aborted (`);
      // Every process of the run is gone (signal 0 only asks whether a pid exists).
      for (const [name, p] of Object.entries(s.live.processes as Record<string, { pid: number }>))
        expect(() => process.kill(p.pid, 0), `${name} (pid ${p.pid}) still runs`).toThrow(/ESRCH/);
    },
  );
});

/** The pid of `parent`'s child process named `name`, from /proc (Linux). */
function childNamed(parent: number, name: string): number | undefined {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid ...: comm may hold spaces, so read past its closing parenthesis.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (comm === name && ppid === parent) return Number(entry);
  }
  return undefined;
}

describe('gridemu run, its nats-server killed from outside', () => {
  it('stops at once naming the server, not a process found silent later, and keeps what the driver had', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 2000, speedup: 200 });
    const out = join(dir, 'out');
    const run = gridemuLive(['run', spec, '--out', out, '--timeout', '300']);
    await clockStarted(out);
    const server = childNamed(run.child.pid!, 'nats-server');
    expect(server, "gridemu run's nats-server among its children").toBeDefined();
    process.kill(server!, 'SIGKILL');
    const { code, err } = await run.done;
    expect(code, err).toBe(1);
    const cause = `the run's nats-server (pid ${server}) exited during the run (killed by SIGKILL)`;
    expect(err).toContain(`gridemu: run failed: ${cause}`);
    // The results name the cause too, not the signal the driver got after it (told on its stdin).
    const s = readSummary(out);
    expect(s.live.aborted).toBe(cause);
    for (const [name, p] of Object.entries(s.live.processes as Record<string, { pid: number }>))
      expect(() => process.kill(p.pid, 0), `${name} (pid ${p.pid}) still runs`).toThrow(/ESRCH/);
  });
});

describe('gridemu run, a run that would never end', () => {
  it("is stopped as the simulator stops it, the driver's reason the run's, with what it had written", async () => {
    const dir = tmp();
    const spec = join(dir, 'never.yaml');
    writeFileSync(spec, NEVER_ENDING_SPEC);
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive(['run', spec, '--out', out, '--quiet', '--timeout', '300']).done;
    expect(code, err).toBe(1);
    // Not a process that left because the driver told it to.
    expect(err).toMatch(
      new RegExp(`gridemu: run failed: invariant: no job lost, and the run ends: ${NEVER_ENDING_STOP.source}`),
    );
    const s = readSummary(out);
    expect(s.live.aborted).toMatch(NEVER_ENDING_STOP);
    expect(s.jobs.unfinished).toBe(2);
  });
});

describe(
  'gridemu run, two incarnations of one site at once (a replaced container still running)',
  { timeout: RUN_TEST_LIMIT_MS },
  () => {
    it('the newer fences the journal and carries on, the older stops by itself without failing the run, and every job runs once', async () => {
      const { out, run, log, pid } = await journaledRunWithS2Running();
      // The same command line and environment (its NATS user included), as a second pod or container would have.
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const env = Object.fromEntries(
        readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .filter((kv) => kv.includes('='))
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
      const secondLog = join(out, 'logs', 's2-second.log');
      const fd = openSync(secondLog, 'a');
      const second = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', fd, fd] });
      closeSync(fd);
      const secondExit = new Promise<number | null>((r) => second.once('exit', (code) => r(code)));
      const { code, err } = await run.done;
      expect(code, err).toBe(0);
      expect(await secondExit).toBe(0);
      // The first found out at its next append and left; the second replayed the first's journal.
      expect(readFileSync(log, 'utf8')).toMatch(/a newer incarnation of this process holds the journal/);
      const secondText = readFileSync(secondLog, 'utf8');
      expect(secondText).toMatch(/"incarnation":2/);
      expect(secondText).toContain('rejoined the run');
      const s = readSummary(out);
      expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
      expect(s.jobs.completed).toBe(s.jobs.submitted);
      expect(s.counters['claims.granted']).toBe(s.jobs.submitted);
      // gridemu run started no second s2 itself: it was not asked to.
      expect(s.live.unplanned_restarts).toBeUndefined();
    });
  },
);

describe(
  'gridemu run: the grid execution hierarchy (paper 000), every queue and grid a process',
  { timeout: RUN_TEST_LIMIT_MS },
  () => {
    it('Table 1 under MQ over the hierarchy: the short task is done in minutes while the long one runs; tasks move and queues share load over NATS', async () => {
      const dir = tmp();
      const out = join(dir, 'out');
      const { code, err } = await gridemuLive([
        'run',
        join(REPO, 'examples/hierarchy-table1.yaml'),
        '--out',
        out,
        '--timeout',
        String(RUN_LIMIT_S),
        '--speedup',
        '2000',
        // 200 half-hour jobs instead of 3000 one-hour ones; 1 ms links (2 emulated seconds at this speed-up).
        '--set',
        'workload[0].tasks.list[0]={ submit_s: 0, work_s: 360000, jobs: 200 }',
        '--set',
        'network.latency_ms=1',
        '--set',
        'network.jitter_ms=0',
        '--set',
        `live.warm_up_jobs=${TEST_WARM_UP_JOBS}`,
      ]).done;
      expect(code, err).toBe(0);
      const rows = readFileSync(join(out, 'jobs.csv'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(','));
      const col = (name: string) => rows[0]!.indexOf(name);
      const [long, short] = [rows[1]!, rows[2]!];
      expect(rows).toHaveLength(3);
      expect(short[col('exec_site')]).toBe('Q1');
      // Not held behind the long task: done in a small part of the long one's time (33 s against
      // 2,993 s in the simulator). A ratio, not a bound in emulated seconds: on a busy machine every
      // late timer adds (wall lag x speed-up) to both, and the long task crosses more of them.
      expect(Number(short[col('turnaround_time')])).toBeLessThan(Number(long[col('turnaround_time')]) / 4);
      expect(Number(long[col('finish_time')])).toBeGreaterThan(Number(short[col('finish_time')]) + 1800);
      expect(Number(long[col('migrations')])).toBeGreaterThanOrEqual(1);
      const s = readSummary(out);
      expect(Object.keys(s.live.processes).sort()).toEqual([
        'Q1',
        'Q2',
        'Q3',
        'Q4',
        'driver',
        'madison',
        'server',
        'technion',
      ]);
      expect(s.messages.cross_site_by_type['hq.task']).toBeGreaterThanOrEqual(1);
      expect(s.messages.cross_site_by_type['hq.grid-status']).toBeGreaterThan(0);
      expect(s.messages.cross_site_by_type['hq.queue-status']).toBeGreaterThan(0);
      // The Condor pools matched jobs in negotiation cycles, live as in the simulator.
      expect(s.hierarchy.negotiation.cycles).toBeGreaterThan(0);
      expect(s.hierarchy.negotiation.matches).toBeGreaterThan(0);
      expect(s.schedule_check.ok).toBe(true);
    });
  },
);

describe('gridemu run: paper 004, a resource away from the grid', () => {
  it('MCT over NATS sends it nothing and asks only the resources present', async () => {
    const { out, s } = await runLiveLines([
      'name: live-away',
      'seed: 3',
      'sites: [{ id: a, cpus: 1 }, { id: b, cpus: 1 }, { id: c, cpus: 1 }, { id: d, cpus: 1 }]',
      'workload: [{ site: a, synthetic: { jobs: 40, uhi: 1 } }]',
      // d, the fastest, is away for the whole run: the schedule is read on the run's clock, live too.
      'meta: { scheme: mct, speeds: [1, 2, 4, 8], away: { d: [[0, 1000000000]] } }',
      'network: { latency_ms: 5 }',
      `live: { speedup: 5000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
    ]);
    expect(s.jobs.completed).toBe(40);
    expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
    const rows = readFileSync(join(out, 'jobs.csv'), 'utf8').trim().split('\n');
    const site = rows[0]!.split(',').indexOf('exec_site');
    expect(rows.slice(1).filter((l) => l.split(',')[site] === 'd')).toEqual([]);
    expect(s.messages.cross_site_by_type['sr.query']).toBe(40 * 3);
    expect(s.messages.cross_site_by_type['sr.answer']).toBe(40 * 3);
  });
});

describe('gridemu run: paper 004, resources that leave and join mid-run', () => {
  it('MCT over NATS sends nothing to a resource after it leaves, nor before it joins, on the run clock', async () => {
    const lines = (away: string) => [
      'name: live-churn',
      'seed: 3',
      'sites: [{ id: a, cpus: 1 }, { id: b, cpus: 1 }, { id: c, cpus: 1 }, { id: d, cpus: 1 }]',
      'workload: [{ site: a, synthetic: { jobs: 40, uhi: 1 } }]',
      // A long timeout: every decision has every present resource's answer, however loaded the machine.
      `meta: { scheme: mct, speeds: [1, 2, 4, 8], query_timeout_s: 1000000${away} }`,
      'network: { latency_ms: 5 }',
      `live: { speedup: 5000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
    ];
    // The leave and the join at the 10th and 25th arrivals, read from the simulator's run of the same tasks.
    const dir = tmp();
    writeFileSync(join(dir, 'plain.yaml'), lines('').join('\n') + '\n');
    const sim = spawnSync(process.execPath, [
      join(REPO, 'services/cli/dist/main.js'),
      'simulate',
      join(dir, 'plain.yaml'),
      '--out',
      join(dir, 'sim'),
      '--quiet',
    ]);
    expect(sim.status, String(sim.stderr)).toBe(0);
    const submitted = (out: string) => {
      const [header, ...rows] = readFileSync(join(out, 'jobs.csv'), 'utf8').trim().split('\n');
      const col = (name: string) => header!.split(',').indexOf(name);
      return rows
        .map((r) => r.split(','))
        .map((f) => ({
          submit: Number(f[col('submission_time')]),
          start: Number(f[col('starting_time')]),
          exec: f[col('exec_site')]!,
        }));
    };
    const times = submitted(join(dir, 'sim'))
      .map((t) => t.submit)
      .sort((x, y) => x - y);
    const [leave, join_] = [times[9]!, times[24]!];
    // d, the fastest, leaves at `leave` for good; c, the next, is away until `join_`.
    const { out, s } = await runLiveLines(lines(`, away: { d: [[${leave}, 1000000000]], c: [[0, ${join_}]] }`));
    expect(s.jobs.completed).toBe(40);
    expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
    const tasks = submitted(out);
    // A task submitted after the leave reaches the scheduler after it, whatever the delays.
    expect(tasks.filter((t) => t.exec === 'd' && t.submit >= leave)).toEqual([]);
    // One decided before the join cannot have gone to c, so whatever c ran started after it...
    expect(tasks.filter((t) => t.exec === 'c' && t.start < join_)).toEqual([]);
    // ...and c, the fastest present once d has left, got the first decision after it.
    expect(tasks.filter((t) => t.exec === 'c').length).toBeGreaterThan(0);
  });
});

describe('gridemu run: paper 003 DAG jobs, the general services their own process', () => {
  it('dag-adaptive: progress, checkpoints, migrations and stops at the limit cross NATS; every task runs once, after its parents, or fails with its job', async () => {
    const { out, s } = await runLiveLines(LIVE_DAG);
    expect(Object.keys(s.live.processes).sort()).toEqual(['driver', 's1', 's2', 's3', 's4', 'services']);
    expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
    expect(s.dag.jobs_failed_at_limit).toBeGreaterThan(0);
    expect(s.dag.jobs_completed + s.dag.jobs_failed_at_limit).toBe(12);
    expect(s.dag.migrations).toBeGreaterThan(0);
    // Between the sites and the services' process; the IS and the CS answer GSched inside that process.
    for (const type of ['dag.run', 'dag.progress', 'dag.stop', 'dag.checkpoint', 'dag.done'])
      expect(s.messages.cross_site_by_type[type] ?? 0, type).toBeGreaterThan(0);
    for (const type of ['dag.status', 'dag.stopped']) expect(s.messages.cross_site_by_type[type] ?? 0, type).toBe(0);
    const [header, ...rows] = readFileSync(join(out, 'jobs.csv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const col = (name: string) => header!.indexOf(name);
    const byId = new Map(rows.map((r) => [r[col('job_id')]!, r]));
    // Each task either completed or failed with its job at the limit; a failed job's tasks were stopped.
    const failed = rows.filter((r) => r[col('final_state')] === 'COMPLETED_FAILED');
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) expect(r[col('reason')]).toBe('growth_limit');
    expect(s.jobs.completed + failed.length).toBe(12 * 7);
    for (const r of rows)
      if (r[col('final_state')] !== 'COMPLETED_FAILED') expect(r[col('final_state')]).toBe('COMPLETED_SUCCESSFULLY');
    const failedDags = new Set(failed.map((r) => r[col('dag')]));
    expect(failedDags.size).toBe(s.dag.jobs_failed_at_limit);
    // A migrated task's row counts its moves, reported when it completed.
    expect(rows.reduce((n, r) => n + Number(r[col('migrations')]), 0)).toBe(s.dag.migrations);
    for (const r of rows) {
      expect(r[col('dag')]).toMatch(/^tor!\d+$/);
      if (r[col('job_id')]!.endsWith('/final') && !failedDags.has(r[col('dag')])) {
        for (let p = 0; p < 5; p++)
          expect(Number(r[col('starting_time')])).toBeGreaterThanOrEqual(
            Number(byId.get(`${r[col('dag')]}/p${p}`)![col('finish_time')]),
          );
      }
    }
  });
});
