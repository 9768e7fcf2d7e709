// Live benchmarks, on a local nats-server:
//  1. protocol round trip on loopback: an actor envelope encoded, published, decoded, answered and
//     decoded again, between two NATS connections (median and p99 over many round trips);
//  2. messages per second through a site: load reports published as fast as the client can to one
//     site's metascheduler, hosted in a LiveRuntime, until every one has been handled;
//  3. jobs per second `gridemu run` sustains: a synthetic 4-site K=2 run at rising speed-ups,
//     checking exactly-once (jobs.csv and the sites' logs) at each; the highest that holds counts;
//  4. where the time goes: the same run at the highest sustained speed-up, every process
//     under V8's CPU profiler, each sample charged to a part (where-time-goes.mjs);
//  5. what Prometheus scraping costs that throughput;
//  6. what the warm-up does: alternated pairs with and without it;
//  7. the sustained rate: a run five times as long, at the best speed-up and twice it;
//  8. K = 4; 9. the journal, in each store, against the same run without;
// 10. the fidelity guard on the README's quickstart.
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { startLocalNatsServer } from '@gridemu/nats-server';
import { decodeEnvelope, encodeEnvelope } from '@gridemu/protocol/wire';
import { silentLogger, topicRecipient } from '@gridemu/runtime';
import { LiveRuntime } from '@gridemu/runtime/live';
import { NatsTransport, topicSubject } from '@gridemu/transport-nats';
import { memberActors } from '@gridemu/live';
import { MESSAGE_CHECK, parseExperiment, LOAD_TOPIC, Paper001MessageType } from '@gridemu/schemes';
import { describeTimeGone, whereTimeGoes } from './where-time-goes.mjs';

/** Measured with the code of commit 71579a1 on this project's machine (AMD EPYC, 2 cores, Node 20), 2026-11-22: its best of the runs at 100,000 and 200,000. */
const BEFORE_ISSUE_8 = {
  commit: '71579a1',
  peak_jobs_per_s: 603,
  peak_speedup: 200000,
  messages_per_job_through_server: 19.1,
};
/** The same commit built beside this code and run on this bench's short spec on 2026-11-25, a quiet hour (one run each). */
const BEFORE_ISSUE_8_SAME_DAY = { commit: '71579a1', date: '2026-11-25', jobs_per_s: { 200000: 692, 500000: 445 } };
// The same commit on the longer run (section 7), built and run beside this code on 2026-11-25: it
// collapsed, claims timing out and retrying, at 5.7–8.1 CPU ms a job. Medians of its runs.
const BEFORE_ISSUE_8_LONG = {
  commit: '71579a1',
  jobs: 10000,
  jobs_per_s: { 200000: 400, 500000: 227, 1000000: 297 },
  runs: { 200000: 1, 500000: 2, 1000000: 3 },
};

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}`;
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const results = { machine, date: new Date().toISOString() };
const server = await startLocalNatsServer();
try {
  // 1. Round trip.
  const a = await connect({ servers: server.url });
  const b = await connect({ servers: server.url });
  const job = { id: 'bench!1', workload: 'bench', origin: 's1', submit_s: 0, run_s: 100, estimate_s: 200, procs: 4 };
  b.subscribe('bench.rt', {
    callback: (_e, m) => {
      const d = decodeEnvelope(m.data, 'bench', MESSAGE_CHECK);
      m.respond(
        encodeEnvelope({
          run: 'bench',
          from: 's2/meta',
          to: 's1/meta',
          msg: { type: Paper001MessageType.ClaimGrant, jobId: d.envelope.msg.job.id, claimId: 1 },
        }),
      );
    },
  });
  await b.flush();
  const rtts = [];
  for (let i = 0; i < 3000; i++) {
    const t = performance.now();
    const reply = await a.request(
      'bench.rt',
      encodeEnvelope({
        run: 'bench',
        from: 's1/meta',
        to: 's2/meta',
        msg: {
          type: Paper001MessageType.JobCopy,
          job,
          queue: 'remote',
          claim: true,
          trail: { copies: 2, migrations: 0, replans: 0 },
        },
      }),
    );
    if (!decodeEnvelope(reply.data, 'bench', MESSAGE_CHECK).ok) throw new Error('bad reply');
    if (i >= 200) rtts.push((performance.now() - t) * 1000);
  }
  results.round_trip_us = {
    median: Math.round(quantile(rtts, 0.5)),
    p99: Math.round(quantile(rtts, 0.99)),
    n: rtts.length,
  };
  console.log(
    `protocol round trip on loopback (encode, NATS, decode, reply): median ${results.round_trip_us.median} µs, p99 ${results.round_trip_us.p99} µs over ${rtts.length} (${machine})`,
  );

  // 2. Messages per second through one site's metascheduler.
  const { spec } = parseExperiment(
    'name: b\nsites: [{ id: s1, cpus: 64 }, { id: s2, cpus: 64 }]\nworkload: [{ site: s1, synthetic: { jobs: 1 } }]\nmeta: { scheme: k-distributed, k: 2 }\n',
    'bench',
  );
  const rt = new LiveRuntime({
    transport: new NatsTransport(b, 'benchsite'),
    run: 'benchsite',
    seed: 1,
    log: silentLogger,
    check: MESSAGE_CHECK,
  });
  for (const p of memberActors(spec, 's1')) rt.spawn(p);
  await rt.ready();
  rt.start(0, 1);
  const N = 100_000;
  const subject = topicSubject('benchsite', LOAD_TOPIC, 's2/scheduler');
  const base = rt.deliveries;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    a.publish(
      subject,
      encodeEnvelope({
        run: 'benchsite',
        from: 's2/scheduler',
        to: topicRecipient(LOAD_TOPIC),
        msg: { type: Paper001MessageType.LoadReport, site: 's2', load: i % 1000, time_s: 0 },
      }),
    );
    if (i % 5000 === 0) await a.flush();
  }
  await a.flush();
  while (rt.deliveries - base < N) await new Promise((r) => setTimeout(r, 5));
  const perSecond = Math.round(N / ((performance.now() - t0) / 1000));
  await rt.stop();
  results.site_messages_per_s = perSecond;
  console.log(
    `messages through a site (load reports to its metascheduler, decoded, validated, handled): ${perSecond.toLocaleString('en')} msg/s over ${N.toLocaleString('en')}`,
  );
  await a.close();
  await b.close();
} finally {
  await server.stop();
}

// 3. Jobs per second of a live run, at rising speed-ups, with exactly-once checked at each.
const dir = mkdtempSync(join(tmpdir(), 'gridemu-bench-live-'));
const spec = join(dir, 'spec.yaml');
writeFileSync(
  spec,
  [
    'name: bench-live',
    'seed: 3',
    'sites:',
    ...[1, 2, 3, 4].map((i) => `  - { id: s${i}, cpus: 128 }`),
    'workload:',
    ...[1, 2, 3, 4].map((i) => `  - { site: s${i}, synthetic: { jobs: 500 }, shift_h: ${i - 1} }`),
    'local: { policy: easy }',
    'meta: { scheme: k-distributed, k: 2, load_period_s: 600, claim_timeout_s: 600 }',
    'network: { latency_ms: 0, jitter_ms: 0 }',
  ].join('\n') + '\n',
);
results.live_runs = [];
for (const speedup of (process.env.BENCH_LIVE_SPEEDUPS ?? '50000,100000,200000,300000,500000').split(',').map(Number)) {
  const run = measuredRun(spec, join(dir, `run-${speedup}`), speedup);
  results.live_runs.push(run);
  console.log(`live run, 4 sites K=2, ${run.jobs} jobs at speed-up ${speedup}: ${describeRun(run)}`);
  console.log(
    `  messages per job by type: ${Object.entries(run.messages_per_job_by_type)
      .sort(([, a], [, b]) => b - a)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
  if (!run.exactly_once) break;
}
// Past some speed-up the processes cannot keep up and wall time stops shrinking: the best rate counts.
const best = results.live_runs.filter((r) => r.exactly_once).sort((a, b) => b.jobs_per_s - a.jobs_per_s)[0];
if (best)
  console.log(
    `highest of the short runs: ${best.jobs_per_s} jobs/s (at speed-up ${best.speedup}) with exactly-once holding, ${best.bus_messages_per_job} messages per job through nats-server in ${best.nats_messages_per_job} NATS messages (the sustained rate is section 7's)`,
  );
results.best = best;
// Before the per-subject batching (commit 71579a1, the same spec and machine, 2026-11-22): every actor message was a
// publish, meta -> scheduler -> executor inside one site crossing the server twice, and load reports
// went one per receiver. That code no longer exists here, so its figures are recorded, not re-run.
results.before_issue_8 = { ...BEFORE_ISSUE_8, same_day: BEFORE_ISSUE_8_SAME_DAY };
console.log(
  `before issue 8 (recorded): ${BEFORE_ISSUE_8.peak_jobs_per_s} jobs/s at its peak (speed-up ${BEFORE_ISSUE_8.peak_speedup}), ${BEFORE_ISSUE_8.messages_per_job_through_server} messages per job through nats-server; on ${BEFORE_ISSUE_8_SAME_DAY.date}, a quiet hour, ${Object.entries(
    BEFORE_ISSUE_8_SAME_DAY.jobs_per_s,
  )
    .map(([sp, r]) => `${r} jobs/s at ${sp}`)
    .join(', ')}`,
);

// 4. Where the time goes. Profiled processes run slower; the shares are what counts.
//    CPU ms per job is every process's CPU time (start-up included) over the jobs: less noisy than
//    jobs/s on a shared machine, and what 2,000 jobs/s on 2 cores needs under 1 ms.
if (best) {
  const profiles = join(dir, 'profiles');
  const out = join(dir, 'profiled');
  const summary = gridemuRun('profiled', spec, out, best.speedup, [], {
    GRIDEMU_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${profiles}`,
  });
  const cpu_s = Object.values(summary.live.processes).reduce((a, p) => a + (p.cpu_s ?? 0), 0);
  const byProcess = whereTimeGoes(profiles);
  results.where_time_goes = {
    speedup: best.speedup,
    cpu_ms_per_job_unprofiled: +((1000 * best.cpu_s) / best.jobs).toFixed(2),
    cpu_ms_per_job_profiled: +((1000 * cpu_s) / summary.jobs.submitted).toFixed(2),
    by_process: byProcess,
  };
  console.log(
    `where the time goes at speed-up ${best.speedup} (CPU profiles; ${results.where_time_goes.cpu_ms_per_job_unprofiled} CPU ms per job over all processes unprofiled):`,
  );
  for (const line of describeTimeGone(byProcess)) console.log(line);
}

// 5. What metrics cost: the same run at the highest sustained speed-up, without a scraper
//    and with Prometheus scraping every process every second (--prometheus), alternated, PAIRS times
//    each; the medians' ratio is the throughput kept. The gauges and counters the actors keep are
//    there in both: they are part of the runtime, and what a scrape adds is reading them out.
if (best && prometheusOnPath()) {
  const pairs = Number(process.env.BENCH_METRICS_PAIRS ?? 3);
  const rates = { off: [], on: [] };
  for (let i = 0; i < pairs; i++) {
    for (const mode of ['off', 'on']) {
      const out = join(dir, `metrics-${mode}-${i}`);
      const summary = gridemuRun(`metrics (${mode})`, spec, out, best.speedup, mode === 'on' ? ['--prometheus'] : []);
      rates[mode].push(summary.jobs.submitted / summary.live.run_wall_s);
    }
  }
  const median = (xs) => quantile(xs, 0.5);
  const kept = median(rates.on) / median(rates.off);
  results.metrics_cost = {
    speedup: best.speedup,
    pairs,
    jobs_per_s_without: Math.round(median(rates.off)),
    jobs_per_s_with_prometheus: Math.round(median(rates.on)),
    throughput_kept: +kept.toFixed(3),
  };
  console.log(
    `metrics cost at speed-up ${best.speedup}: ${Math.round(median(rates.off))} jobs/s without a scraper, ${Math.round(median(rates.on))} with Prometheus scraping every second (medians of ${pairs}): ${((1 - kept) * 100).toFixed(1)}% lost (${machine})`,
  );
} else if (best) {
  console.log('metrics cost: skipped, prometheus is not on PATH (apt-get install -y prometheus)');
}

// 6. What the warm-up does: each process runs a small throwaway grid before the clock
//    starts (live.warm_up_jobs, shared/live/src/warm-up.ts), so V8 compiles the run's code before
//    the epoch. The same run at the highest sustained speed-up with and without it, alternated,
//    PAIRS times each: jobs/s and bounded slowdown during the run, and the start-up it adds.
if (best) {
  const pairs = Number(process.env.BENCH_WARM_UP_PAIRS ?? 3);
  const runs = { off: [], on: [] };
  for (let i = 0; i < pairs; i++) {
    for (const mode of ['off', 'on']) {
      const out = join(dir, `warm-up-${mode}-${i}`);
      const summary = gridemuRun(
        `warm-up (${mode})`,
        spec,
        out,
        best.speedup,
        mode === 'off' ? ['--set', 'live.warm_up_jobs=0'] : [],
      );
      runs[mode].push({
        jobs_per_s: summary.jobs.submitted / summary.live.run_wall_s,
        bsld: summary.mean_bounded_slowdown,
        join_wall_s: summary.live.join_wall_s,
      });
    }
  }
  const median = (mode, key) =>
    quantile(
      runs[mode].map((x) => x[key]),
      0.5,
    );
  results.warm_up_effect = {
    speedup: best.speedup,
    pairs,
    jobs_per_s: { without: Math.round(median('off', 'jobs_per_s')), with: Math.round(median('on', 'jobs_per_s')) },
    bsld: { without: Math.round(median('off', 'bsld')), with: Math.round(median('on', 'bsld')) },
    join_wall_s: { without: +median('off', 'join_wall_s').toFixed(2), with: +median('on', 'join_wall_s').toFixed(2) },
  };
  const w = results.warm_up_effect;
  console.log(
    `warm-up at speed-up ${best.speedup} (medians of ${pairs} alternated pairs): ${w.jobs_per_s.without} jobs/s without, ${w.jobs_per_s.with} with; bounded slowdown ${w.bsld.without} without, ${w.bsld.with} with; start-up ${w.join_wall_s.without} s without, ${w.join_wall_s.with} s with`,
  );
}

// 7. Sustained throughput: 2,500 jobs a site instead of 500. The short runs last about a
//    second of wall time, a large part of it each process's first moments and the run's tail; a
//    run five times as long shows what the rate holds at. It runs at the highest sustained
//    speed-up of the short runs and at twice that, each checked for exactly-once as above; the
//    best that holds is the sustained figure.
if (best) {
  const long = join(dir, 'spec-long.yaml');
  writeFileSync(long, readFileSync(spec, 'utf8').replace(/jobs: 500/g, 'jobs: 2500'));
  results.long_runs = [];
  for (const speedup of [best.speedup, 2 * best.speedup]) {
    const run = measuredRun(long, join(dir, `long-${speedup}`), speedup);
    results.long_runs.push(run);
    console.log(`longer run, ${run.jobs} jobs at speed-up ${speedup}: ${describeRun(run)}`);
  }
  results.sustained = results.long_runs.filter((r) => r.exactly_once).sort((a, b) => b.jobs_per_s - a.jobs_per_s)[0];
  results.before_issue_8_long_run = BEFORE_ISSUE_8_LONG;
  const sustained = results.sustained;
  console.log(
    (sustained
      ? `sustained over ${sustained.jobs} jobs: ${sustained.jobs_per_s} jobs/s (at speed-up ${sustained.speedup}) with exactly-once holding, ${sustained.cpu_ms_per_job} CPU ms per job; issue 15's target is 2,000 jobs/s`
      : 'sustained: no longer run held exactly-once') +
      `; before issue 8 (recorded, same run): ${Object.entries(BEFORE_ISSUE_8_LONG.jobs_per_s)
        .map(([sp, r]) => `${r} jobs/s at ${sp}`)
        .join(', ')}`,
  );
}

// 8. K = 4 (issue 33): the same 10,000 jobs with every job copied to all four sites, at the
//    sustained speed-up and twice it; the best that holds exactly-once is the figure (target 2,000 jobs/s).
if (results.sustained) {
  const k4 = join(dir, 'spec-k4.yaml');
  writeFileSync(k4, readFileSync(join(dir, 'spec-long.yaml'), 'utf8').replace('k: 2,', 'k: 4,'));
  const runs = [results.sustained.speedup, 2 * results.sustained.speedup].map((speedup) => {
    const run = measuredRun(k4, join(dir, `k4-${speedup}`), speedup);
    console.log(`K = 4, ${run.jobs} jobs at speed-up ${speedup}: ${describeRun(run)}`);
    return run;
  });
  results.k4 = { runs, sustained: runs.filter((r) => r.exactly_once).sort((a, b) => b.jobs_per_s - a.jobs_per_s)[0] };
}

// 9. The journal (issue 33): the 10,000-job run with live.journal: true (every site journals
//    every delivery, output waiting for it) against the same run without, in alternated pairs at
//    the sustained speed-up, for each store. Targets: jobs/s at least 0.9x, felt delay at most 1.2x.
//    At this speed-up a claim's 600 emulated s are under a wall millisecond: the delay a journal
//    adds makes more claims time out and go again, so the two runs do different work. The third
//    comparison gives claims a timeout beyond any round trip (10^6 s), so both runs send about the
//    same messages and the ratio is the journal's own cost. The fourth runs the first at a tenth of
//    the sustained speed-up, below saturation, where both runs keep up with the trace and the felt
//    delay is mostly the hops' own rather than queueing: what a journal costs a run that does not
//    push the machine to its limit.
if (results.sustained) {
  const sustainedSpeedup = results.sustained.speedup;
  const pairs = Number(process.env.BENCH_JOURNAL_PAIRS ?? 3);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const patient = join(dir, 'spec-long-patient-claims.yaml');
  writeFileSync(
    patient,
    readFileSync(join(dir, 'spec-long.yaml'), 'utf8').replace('claim_timeout_s: 600', 'claim_timeout_s: 1000000'),
  );
  const compare = (store, long = join(dir, 'spec-long.yaml'), speedup = sustainedSpeedup) => {
    const without = [];
    const withJournal = [];
    for (let i = 0; i < pairs; i++) {
      without.push(measuredRun(long, join(dir, `nojournal-${store}-${speedup}-${i}`), speedup));
      withJournal.push(
        measuredRun(long, join(dir, `journal-${store}-${speedup}-${i}`), speedup, [
          '--set',
          'live.journal=true',
          '--journal-store',
          store,
        ]),
      );
    }
    const side = (runs) => ({
      jobs_per_s: median(runs.map((r) => r.jobs_per_s)),
      felt_mean_ms: median(runs.map((r) => r.felt_mean_ms)),
      to_mailbox_mean_ms: median(runs.map((r) => r.to_mailbox_mean_ms)),
      in_mailbox_mean_ms: median(runs.map((r) => r.in_mailbox_mean_ms)),
      timer_fire_lag_mean_ms: median(runs.map((r) => r.timer_fire_lag_mean_ms)),
      cpu_ms_per_job: median(runs.map((r) => r.cpu_ms_per_job)),
      ...(runs.every((r) => r.run_cpu_ms_per_job !== undefined)
        ? { run_cpu_ms_per_job: median(runs.map((r) => r.run_cpu_ms_per_job)) }
        : {}),
      claims_sent: median(runs.map((r) => r.claims_sent)),
      resent: median(runs.map((r) => r.resent)),
      exactly_once: runs.every((r) => r.exactly_once),
    });
    const a = side(without);
    const b = side(withJournal);
    const result = {
      store,
      claim_timeout_s: long === patient ? 1000000 : 600,
      speedup,
      pairs,
      without: a,
      with: b,
      jobs_per_s_ratio: +(b.jobs_per_s / a.jobs_per_s).toFixed(3),
      felt_delay_ratio: +(b.felt_mean_ms / a.felt_mean_ms).toFixed(3),
      // Each alternated pair's own ratios: how far one pair can stray from the medians on a shared machine.
      pair_jobs_per_s_ratios: without.map((r, i) => +(withJournal[i].jobs_per_s / r.jobs_per_s).toFixed(3)),
      pair_felt_delay_ratios: without.map((r, i) => +(withJournal[i].felt_mean_ms / r.felt_mean_ms).toFixed(3)),
    };
    console.log(
      `journal in ${store}, claim timeout ${result.claim_timeout_s} s, medians of ${pairs} alternated pairs at speed-up ${speedup}: ${b.jobs_per_s} jobs/s against ${a.jobs_per_s} without (${result.jobs_per_s_ratio}x), felt one-way delay ${b.felt_mean_ms} ms against ${a.felt_mean_ms} (${result.felt_delay_ratio}x; to the mailbox ${b.to_mailbox_mean_ms} against ${a.to_mailbox_mean_ms} ms, in it ${b.in_mailbox_mean_ms} against ${a.in_mailbox_mean_ms}, timers late ${b.timer_fire_lag_mean_ms} against ${a.timer_fire_lag_mean_ms}), claims sent ${b.claims_sent} against ${a.claims_sent}, ${b.resent} resent, exactly-once ${a.exactly_once && b.exactly_once ? 'held' : 'BROKEN'}`,
    );
    return result;
  };
  results.journal = compare('file');
  results.journal_jetstream = compare('jetstream');
  results.journal_patient_claims = compare('file', patient);
  results.journal_below_saturation = compare('file', join(dir, 'spec-long.yaml'), sustainedSpeedup / 10);
}

// 10. The fidelity guard on the README's quickstart (issue 15): examples/quickstart-live.yaml at
//     its own speed-up, and what the guard said before the run (a bus probe and the file's latency)
//     and measured in it (the hops and timers' lag). Target: quiet both times. A hop and a lag are
//     wall times, so this measures the machine as much as the code: it is a benchmark, not a test.
{
  // No --speedup: the file's own, at which the README runs it.
  const { fidelity } = gridemuRun(
    'quickstart',
    join(repo, 'examples/quickstart-live.yaml'),
    join(dir, 'quickstart-live'),
    undefined,
  ).live;
  const verdictOf = (v) =>
    v && {
      hop_ms: v.hop_ms,
      hop_s: v.hop_s,
      timer_lag_ms: v.timer_lag_ms,
      timer_lag_s: v.timer_lag_s,
      warnings: v.warnings,
    };
  results.quickstart_fidelity = {
    speedup: fidelity.before.speedup,
    share: fidelity.before.share,
    timescales: fidelity.timescales,
    before: verdictOf(fidelity.before),
    measured: verdictOf(fidelity.measured),
    quiet: fidelity.before.warnings.length === 0 && (fidelity.measured?.warnings.length ?? 0) === 0,
  };
  console.log(
    `quickstart fidelity guard: before ${fidelity.before.hop_ms} ms a hop, measured ${fidelity.measured?.hop_ms} ms a hop and ${fidelity.measured?.timer_lag_ms} ms timer lag: ${results.quickstart_fidelity.quiet ? 'quiet' : 'WARNED'}`,
  );
}

/**
 * One run of the throughput bench at one speed-up, measured: jobs/s over the run's wall time, and
 * exactly-once checked from the results themselves: `gridemu run` exited 0, no job unfinished,
 * and every completed job started exactly once according to the sites' logs.
 */
function measuredRun(specFile, out, speedup, extra = []) {
  const r = spawnRun(specFile, out, speedup, extra);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  const rows = readFileSync(join(out, 'jobs.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const starts = new Map();
  for (const f of readdirSync(join(out, 'logs'))) {
    for (const line of readFileSync(join(out, 'logs', f), 'utf8').split('\n'))
      if (line.includes('"job.started"')) {
        const e = JSON.parse(line);
        starts.set(e.jobId, (starts.get(e.jobId) ?? 0) + 1);
      }
  }
  const completed = rows.filter((f) => f[6] === 'COMPLETED_SUCCESSFULLY').length;
  const exactlyOnce =
    r.status === 0 &&
    summary.jobs.unfinished === 0 &&
    completed === starts.size &&
    [...starts.values()].every((n) => n === 1);
  // Messages through nats-server: every envelope a runtime published (a message between two actors
  // of one process, and each extra receiver of a topic, does not cross it).
  const busPerJob = +((summary.counters['bus.published'] ?? 0) / rows.length).toFixed(2);
  // What nats-server carried: payloads to one subject in one turn go as one NATS message (NatsTransport).
  const natsPerJob = +((summary.counters['bus.nats_messages'] ?? 0) / rows.length).toFixed(2);
  const byType = Object.fromEntries(
    Object.entries(summary.messages.per_job_by_type ?? {}).map(([t, n]) => [t, +Number(n).toFixed(2)]),
  );
  const cpu_s = Object.values(summary.live.processes).reduce((a, p) => a + (p.cpu_s ?? 0), 0);
  // From the clock's start to the end only: start-up and the warm-up, the same with a journal or
  // without, left out (absent from a summary before 2026-12-02).
  const processes = Object.values(summary.live.processes);
  const run_cpu_s = processes.every((p) => p.run_cpu_s !== undefined)
    ? processes.reduce((a, p) => a + p.run_cpu_s, 0)
    : undefined;
  return {
    speedup,
    jobs: rows.length,
    cpu_s,
    cpu_ms_per_job: +((1000 * cpu_s) / rows.length).toFixed(2),
    ...(run_cpu_s !== undefined ? { run_cpu_ms_per_job: +((1000 * run_cpu_s) / rows.length).toFixed(2) } : {}),
    wall_s: summary.live.run_wall_s,
    jobs_per_s: Math.round(rows.length / summary.live.run_wall_s),
    exactly_once: exactlyOnce,
    schedule_ok: summary.schedule_check?.ok === true,
    messages_per_job: summary.messages.per_job,
    messages_per_job_by_type: byType,
    bus_messages_per_job: busPerJob,
    nats_messages_per_job: natsPerJob,
    bsld: summary.mean_bounded_slowdown,
    timer_lag_p95_ms: summary.live.timer_lag_ms.p95_ms,
    join_wall_s: summary.live.join_wall_s,
    ...feltDelays_ms(out),
    claims_sent: summary.counters['claims.sent'] ?? 0,
    resent: summary.counters['bus.resent'] ?? 0,
  };
}

/** The mean of latency histograms taken together (network.json's `sum_ms` and `count`), wall ms; null if empty. */
function meanOf(histograms) {
  let sum = 0;
  let count = 0;
  for (const h of histograms) {
    sum += h.sum_ms;
    count += h.count;
  }
  return count > 0 ? +(sum / count).toFixed(3) : null;
}

/**
 * A run's felt one-way delays from its network.json, means in wall ms: between two different
 * locations (`felt_mean_ms`), and, with the mailbox split, its two parts: until the receiver's
 * mailbox (the sender's lateness, its output, the bus, the receiver's read) and the wait there;
 * and how late timers reached their mailbox.
 */
function feltDelays_ms(out) {
  const network = JSON.parse(readFileSync(join(out, 'network.json'), 'utf8'));
  const between = Object.entries(network.links)
    .filter(([link]) => {
      const [from, to] = link.split('->');
      return from !== to;
    })
    .map(([, h]) => h);
  const felt = { felt_mean_ms: meanOf(between) };
  const { mailbox } = network;
  if (!mailbox) return felt;
  const byType = (split) => Object.values(split).flatMap((links) => Object.values(links));
  return {
    ...felt,
    to_mailbox_mean_ms: meanOf(byType(mailbox.arrived_by_type)),
    in_mailbox_mean_ms: meanOf(byType(mailbox.waited_by_type)),
    timer_fire_lag_mean_ms: meanOf([mailbox.timer_fire_lag]),
  };
}

function describeRun(run) {
  return `${run.wall_s.toFixed(1)} s wall, ${run.jobs_per_s} jobs/s, exactly-once ${run.exactly_once ? 'held' : 'BROKEN'}, schedule check ${run.schedule_ok ? 'passed' : 'FAILED'}, ${run.bus_messages_per_job} messages per job through nats-server in ${run.nats_messages_per_job} NATS messages (of ${run.messages_per_job} sent), ${run.cpu_ms_per_job} CPU ms per job, bsld ${run.bsld.toFixed(2)}, timer lag p95 ${run.timer_lag_p95_ms} ms`;
}

/** One `gridemu run` of the bench; its summary.json, or an error naming the run. */
function gridemuRun(label, specFile, out, speedup, extra = [], env = {}) {
  const r = spawnRun(specFile, out, speedup, extra, env);
  if (r.status !== 0) throw new Error(`${label} bench run failed: ${r.stderr}`);
  return JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
}

function spawnRun(specFile, out, speedup, extra = [], env = {}) {
  return spawnSync(
    process.execPath,
    [
      join(repo, 'services/cli/dist/main.js'),
      'run',
      specFile,
      '--out',
      out,
      '--quiet',
      ...(speedup === undefined ? [] : ['--speedup', String(speedup)]),
      '--timeout',
      '600',
      ...extra,
    ],
    { encoding: 'utf8', env: { ...process.env, ...env } },
  );
}

function prometheusOnPath() {
  return spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' }).status === 0;
}
mkdirSync(join(repo, 'bench-results'), { recursive: true });
writeFileSync(join(repo, 'bench-results/live.json'), JSON.stringify(results, null, 2) + '\n');
// The runs' folders (a few hundred MB): every figure kept is in live.json.
rmSync(dir, { recursive: true, force: true });
