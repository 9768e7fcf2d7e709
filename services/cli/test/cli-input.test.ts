import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemu, kth, tmp } from './cli-helpers.js';

describe('bad input: a clear message and exit code 2', () => {
  it('names the invalid field and its line', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'e.yaml'),
      'name: x\nsites:\n  - { id: a, cpus: 4 }\n  - { id: b, cpus: 4 }\n  - { id: c, cpus: 0 }\nworkload: [{ site: a, synthetic: { jobs: 5 } }]\n',
    );
    const r = gridemu(['validate', join(dir, 'e.yaml')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(dir, 'e.yaml')}:5: sites[2].cpus: must be a positive integer (got 0)`);
    expect(gridemu(['simulate', join(dir, 'e.yaml')]).code).toBe(2);
  });

  it('validate reads the workload as a run would: a spec it passes starts', () => {
    const dir = tmp();
    // Two jobs submitted at 100 s and 160 s; a crash at 50 s is before the run's clock starts.
    writeFileSync(
      join(dir, 't.swf'),
      [
        '1 100 -1 10 4 -1 -1 -1 20 -1 1 -1 -1 -1 -1 -1 -1 -1',
        '2 160 -1 10 4 -1 -1 -1 20 -1 1 -1 -1 -1 -1 -1 -1 -1',
      ].join('\n'),
    );
    const spec = (trace: string, crashAt: number) =>
      `name: w\nsites: [{ id: s, cpus: 8 }, { id: t, cpus: 8 }]\nworkload: [{ site: s, swf: ${trace} }]\n` +
      `faults: { crash: [{ process: t, at_s: ${crashAt}, down_s: 10 }] }\n`;
    writeFileSync(join(dir, 'early.yaml'), spec('t.swf', 50));
    writeFileSync(join(dir, 'ok.yaml'), spec('t.swf', 120));
    writeFileSync(join(dir, 'missing.yaml'), spec('absent.swf', 120));

    // Known only once the trace is read, the early time is still named by its line in the file,
    // or by the override that gave it.
    const early = gridemu(['validate', join(dir, 'early.yaml')]);
    expect(early.code).toBe(2);
    expect(early.err).toContain(
      `${join(dir, 'early.yaml')}:4: faults.crash[0].at_s: is 50 s, before the first submission at 100 s`,
    );
    const simulated = gridemu(['simulate', join(dir, 'early.yaml'), '--out', join(dir, 'o')]);
    expect(simulated.code).toBe(2);
    expect(simulated.err).toContain(`${join(dir, 'early.yaml')}:4: faults.crash[0].at_s: is 50 s`);
    const overridden = gridemu(['validate', join(dir, 'ok.yaml'), '--set', 'faults.crash[0].at_s=60']);
    expect(overridden.code).toBe(2);
    expect(overridden.err).toContain('\n  faults.crash[0].at_s: is 60 s, before the first submission at 100 s');
    expect(overridden.err).toContain('(give a time from 100 on) (from --set faults.crash[0].at_s=60)');
    // The file alone is well formed: --file-only does not read the trace, so cannot know.
    const fileOnly = gridemu(['validate', join(dir, 'early.yaml'), '--file-only']);
    expect(fileOnly.code, fileOnly.err).toBe(0);
    expect(fileOnly.err).toContain('valid (the file alone: its workload was not read)');

    const missing = gridemu(['validate', join(dir, 'missing.yaml')], { GRIDEMU_TRACE_DIR: join(dir, 'traces') });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('trace "absent.swf" not found');

    const ok = gridemu(['validate', join(dir, 'ok.yaml')]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.err).toContain('valid; its workload: 2 jobs from 1 source, the first submitted at 100 s');
    expect(JSON.parse(ok.out).faults.crash[0].at_s).toBe(120);
  });

  it('warns, in validate, simulate and sweep, of sources that never share their time, and says how to align them', () => {
    const dir = tmp();
    // Two slices of one trace, the second taken with skip: it keeps the trace's times, 10 days on.
    const line = (n: number, submit: number) => `${n} ${submit} -1 10 4 -1 -1 -1 20 -1 1 -1 -1 -1 -1 -1 -1 -1`;
    writeFileSync(join(dir, 't.swf'), [line(1, 0), line(2, 3600), line(3, 864000), line(4, 867600)].join('\n'));
    writeFileSync(
      join(dir, 'e.yaml'),
      'name: w\nsites: [{ id: a, cpus: 8 }, { id: b, cpus: 8 }]\n' +
        'workload: [{ site: a, swf: t.swf, jobs: 2 }, { site: b, swf: t.swf, skip: 2 }]\n',
    );
    const warning =
      "warning: the workload's sources are apart in time: no job is submitted from 3600 s to 864000 s (10.0 days), " +
      'longer than the submissions before it took (1.0 h), so b submits only once a has stopped. ' +
      "A source keeps its trace's submit times (skip does not move a slice to 0): adding 240 to shift_h on a starts it with b";
    const validated = gridemu(['validate', join(dir, 'e.yaml')]);
    expect(validated.code, validated.err).toBe(0);
    expect(validated.err).toContain(`gridemu: ${warning}`);
    const simulated = gridemu(['simulate', join(dir, 'e.yaml'), '--out', join(dir, 'o'), '--quiet']);
    expect(simulated.code, simulated.err).toBe(0);
    expect(simulated.err).toContain(`gridemu: ${warning}`);
    expect(JSON.parse(readFileSync(join(dir, 'o', 'summary.json'), 'utf8')).workload[1]).toMatchObject({
      first_submit_s: 864000,
      last_submit_s: 867600,
    });
    const swept = gridemu(['sweep', join(dir, 'e.yaml'), '--vary', 'sites[0].cpus=4,8', '--out', join(dir, 's')]);
    expect(swept.code, swept.err).toBe(0);
    expect(swept.err.split(warning)).toHaveLength(2);
    // Aligned as the warning says: nothing to say.
    const aligned = gridemu(['validate', join(dir, 'e.yaml'), '--set', 'workload[0].shift_h=240']);
    expect(aligned.code, aligned.err).toBe(0);
    expect(aligned.err).not.toContain('apart in time');
  });

  it('names the file and line of a malformed trace line; --lenient skips and counts it', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 't.swf'),
      ['; comment', '1 0 -1 10 4 -1 -1 -1 20 -1 1 -1 -1 -1 -1 -1 -1 -1', '2 oops'].join('\n'),
    );
    writeFileSync(join(dir, 'e.yaml'), 'name: w\nsites: [{ id: s, cpus: 8 }]\nworkload: [{ swf: t.swf }]\n');
    const r = gridemu(['simulate', join(dir, 'e.yaml'), '--out', join(dir, 'o')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(dir, 't.swf')}:3: expected 18 fields, found 2`);
    const lenient = gridemu(['simulate', join(dir, 'e.yaml'), '--out', join(dir, 'o'), '--lenient', '--quiet']);
    expect(lenient.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, 'o', 'summary.json'), 'utf8'));
    expect(summary.workload[0]).toMatchObject({ jobs: 1, malformed_lines: 1 });
    // Said where it is seen, not only counted in summary.json.
    expect(lenient.err).toContain(
      `gridemu: warning: --lenient skipped 1 malformed line of ${join(dir, 't.swf')} (source s), the first: ${join(dir, 't.swf')}:3: expected 18 fields, found 2`,
    );

    // A sweep stops at the first run with bad input, since the others read the same trace.
    const sweep = ['sweep', join(dir, 'e.yaml'), '--vary', 'sites[0].cpus=4,8,16', '--parallel', '1'];
    const failed = gridemu([...sweep, '--out', join(dir, 'sweep')]);
    expect(failed.code).toBe(2);
    expect(failed.err).toContain(`${join(dir, 't.swf')}:3: expected 18 fields, found 2`);
    expect(failed.err).toContain('1 of 3 runs failed');
    expect(failed.err).toContain("A run's input was bad (exit 2), so 2 runs were not started");
    expect(existsSync(join(dir, 'sweep', 'sweep.csv'))).toBe(false);
    const skipped = gridemu([...sweep, '--lenient', '--out', join(dir, 'sweep')]);
    expect(skipped.code, skipped.err).toBe(0);
    expect(skipped.err).toContain(
      `gridemu sweep: warning: --lenient skipped 1 malformed line of ${join(dir, 't.swf')}`,
    );
    // Once for the sweep, not once a run.
    expect(skipped.err.split('--lenient skipped')).toHaveLength(2);
    expect(
      readFileSync(join(dir, 'sweep', 'sweep.csv'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(4);
  });

  it('says where it looked for a missing trace and how to fetch it', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'e.yaml'),
      'name: w\nsites: [{ id: s, cpus: 8 }]\nworkload: [{ swf: CTC-SP2-1996-3.1-cln.swf.gz }]\n',
    );
    const r = gridemu(['simulate', join(dir, 'e.yaml')], { GRIDEMU_TRACE_DIR: join(dir, 'traces') });
    expect(r.code).toBe(2);
    expect(r.err).toContain(join(dir, 'traces', 'CTC-SP2-1996-3.1-cln.swf.gz'));
    expect(r.err).toContain('gridemu trace fetch CTC-SP2-1996-3.1-cln.swf.gz');
  });

  it('refuses to fetch a name the archive cannot hold, before saying it fetches anything', () => {
    const dir = tmp();
    const r = gridemu(['trace', 'fetch', 'mytrace.swf', '--dir', dir, '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('"mytrace.swf" does not look like a Parallel Workloads Archive log name');
    expect(r.err).not.toContain('fetching');
    expect(readdirSync(dir)).toEqual([]);
    // A shortened archive name: the full one, offline, before anything is fetched.
    const short = gridemu(['trace', 'fetch', 'SDSC-BLUE', '--dir', dir, '--base-url', 'http://127.0.0.1:9']);
    expect(short.code).toBe(2);
    expect(short.err).toContain('"SDSC-BLUE" does not look like a Parallel Workloads Archive log name');
    expect(short.err).toContain('did you mean SDSC-BLUE-2000-4.2-cln.swf.gz?');
    expect(short.err).not.toContain('fetching');
  });

  it('clears what an earlier run left in its folder, and will not replay a live run over its own results', () => {
    const out = tmp();
    // What a live run leaves: its logs (which gridemu check reads), network.json, a journal.
    for (const dir of ['logs', 'journal']) mkdirSync(join(out, dir));
    writeFileSync(join(out, 'logs', 's1.log'), '{"event":"job.started","jobId":"s1!1","site":"s1","time_s":5}\n');
    writeFileSync(join(out, 'network.json'), '{}');
    writeFileSync(join(out, 'jobs.csv'), 'stale');
    const replayOver = gridemu(['simulate', 'examples/quickstart.yaml', '--network-from', out, '--out', out]);
    expect(replayOver.code).toBe(2);
    expect(replayOver.err).toContain('is the live run --network-from replays');
    expect(readFileSync(join(out, 'jobs.csv'), 'utf8')).toBe('stale');

    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--out', out, '--quiet']).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['jobs.csv', 'summary.json']);
    const checked = gridemu(['check', out]);
    expect(checked.code).toBe(0);
    expect(checked.out).not.toContain('in the logs');
    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--out', out, '--quiet', '--summary-only']).code).toBe(0);
    expect(readdirSync(out)).toEqual(['summary.json']);

    // A folder no run wrote (--out .): its own logs and journal are not an earlier run's.
    const mine = tmp();
    mkdirSync(join(mine, 'logs'));
    writeFileSync(join(mine, 'logs', 'app.log'), 'mine\n');
    mkdirSync(join(mine, 'journal'));
    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--out', mine, '--quiet']).code).toBe(0);
    expect(readdirSync(mine).sort()).toEqual(['jobs.csv', 'journal', 'logs', 'summary.json']);
    expect(readFileSync(join(mine, 'logs', 'app.log'), 'utf8')).toBe('mine\n');
  });

  it('says in one line, before any work, why an --out folder cannot be made', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a-file'), '');
    const throughFile = join(dir, 'a-file', 'results');
    for (const args of [
      ['run', 'examples/quickstart-live.yaml', '--out', throughFile],
      ['simulate', 'examples/quickstart.yaml', '--out', throughFile],
      ['sweep', 'examples/quickstart.yaml', '--vary', 'network.latency_ms=0,10', '--out', throughFile],
      ['report', dir, '--out', join(throughFile, 'report.html')],
    ]) {
      const r = gridemu(args);
      expect(r.code, `${args[0]}: ${r.err}`).toBe(2);
      expect(r.err.trim()).toBe(`gridemu: --out: ${join(dir, 'a-file')} is a file, not a folder`);
    }
    // Under /proc every level reports ENOENT, where Node's recursive mkdir never returned.
    const proc = gridemu(['run', 'examples/quickstart-live.yaml', '--out', '/proc/gridemu-nope/x']);
    expect(proc.code).toBe(2);
    expect(proc.err).toContain('gridemu: --out: cannot make /proc/gridemu-nope (ENOENT)');
    // trace fetch's --dir too, before it says it fetches anything (port 1: nothing is reached).
    const fetchArgs = ['trace', 'fetch', 'KTH-SP2-1996-2.1-cln.swf.gz', '--base-url', 'http://127.0.0.1:1'];
    for (const [where, message] of [
      [throughFile, `gridemu: --dir: ${join(dir, 'a-file')} is a file, not a folder`],
      ['/proc/gridemu-nope/x', 'gridemu: --dir: cannot make /proc/gridemu-nope (ENOENT)'],
    ] as const) {
      const r = gridemu([...fetchArgs, '--dir', where]);
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim()).toBe(message);
    }
  });

  it("names run's own options in its errors, and a server --nats names that cannot be reached is bad input", () => {
    const spec = 'examples/quickstart-live.yaml';
    const speedup = gridemu(['run', spec, '--out', tmp(), '--speedup', '0']);
    expect(speedup.code).toBe(2);
    expect(speedup.err).toContain('live.speedup: must be a positive number (got 0) (from --speedup 0)');
    // node:util's parseArgs refuses a value that looks like an option: one line, not a stack.
    const timeout = gridemu(['run', spec, '--out', tmp(), '--timeout', '-1']);
    expect(timeout.code).toBe(2);
    expect(timeout.err).toContain("Option '--timeout' argument is ambiguous");
    expect(timeout.err).not.toContain('    at ');
    // Port 1 on loopback (tcpmux): no service of these machines listens there.
    const nats = gridemu(['run', spec, '--out', tmp(), '--nats', 'nats://127.0.0.1:1']);
    expect(nats.code).toBe(2);
    expect(nats.err).toMatch(/gridemu: --nats nats:\/\/127\.0\.0\.1:1: cannot connect to it \(.+\)\n$/);
  });

  it("refuses a summary.json or jobs.csv that is not gridemu's in check, report and compare alike", () => {
    const good = tmp();
    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--out', good, '--quiet']).code).toBe(0);
    const bad = tmp();
    const jobs = readFileSync(join(good, 'jobs.csv'), 'utf8');
    writeFileSync(join(bad, 'jobs.csv'), jobs);
    for (const summary of ['null', '[]', '{"jobs":{}}']) {
      writeFileSync(join(bad, 'summary.json'), summary);
      for (const args of [
        ['check', bad],
        ['report', bad],
        ['compare', good, bad],
      ]) {
        const r = gridemu(args);
        expect(r.code, `${args[0]} with ${summary}`).toBe(2);
        expect(r.err).toContain("summary.json: no jobs.submitted or spec.sites (is it gridemu's summary.json?)");
      }
    }
    // A jobs.csv cut short, as by a full disk: named with its line, not read as jobs that never started.
    writeFileSync(join(bad, 'summary.json'), readFileSync(join(good, 'summary.json')));
    writeFileSync(join(bad, 'jobs.csv'), jobs.slice(0, jobs.indexOf('\n', 2000) + 10));
    for (const args of [
      ['check', bad],
      ['report', bad],
      ['compare', good, bad],
    ]) {
      const r = gridemu(args);
      expect(r.code, args[0]).toBe(2);
      expect(r.err).toMatch(/jobs\.csv:\d+: \d+ fields, the header has \d+\n$/);
    }
  });

  it('report of a folder that is not there, or of a file, refuses it as input and makes nothing', () => {
    const dir = tmp();
    const typo = join(dir, 'resluts');
    const missing = gridemu(['report', typo]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(
      `${typo}: not found: give a results folder of gridemu simulate or run, a sweep folder or a folder of seeds`,
    );
    // Before 2026-12-07 the mistyped folder was made, empty, as the report's.
    expect(existsSync(typo)).toBe(false);
    const file = join(dir, 'afile');
    writeFileSync(file, 'x');
    const notFolder = gridemu(['report', file]);
    expect(notFolder.code).toBe(2);
    expect(notFolder.err).toContain(`${file}: is a file, not a results folder`);
  });

  it('says in one line why a trace cannot be downloaded, and what to do instead (exit 1, no stack)', () => {
    const dir = tmp();
    // Port 1 is one fetch refuses to open ("bad port"): a failure that needs no network.
    const r = gridemu([
      'trace',
      'fetch',
      'KTH-SP2-1996-2.1-cln.swf.gz',
      '--dir',
      dir,
      '--base-url',
      'http://127.0.0.1:1',
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('gridemu: cannot download http://127.0.0.1:1/l_kth_sp2/KTH-SP2-1996-2.1-cln.swf.gz: ');
    expect(r.err).toContain(`(a mirror: --base-url or GRIDEMU_PWA_URL; or copy the file into ${dir})`);
    expect(r.err).not.toContain('    at ');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves a trace already there as it is, and --force downloads it again without losing it on failure', () => {
    const dir = tmp();
    const there = join(dir, 'KTH-SP2-1996-2.1-cln.swf.gz');
    writeFileSync(there, '1 0 1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n');
    const args = ['trace', 'fetch', 'KTH-SP2-1996-2.1-cln.swf.gz', '--dir', dir, '--base-url', 'http://127.0.0.1:1'];
    const kept = gridemu(args);
    expect(kept.code, kept.err).toBe(0);
    expect(kept.out).toBe(`${there}: already there, left as it is (--force downloads it again)\n`);
    // Port 1 cannot be reached: --force tries, fails, and the trace there stays whole.
    const forced = gridemu([...args, '--force']);
    expect(forced.code).toBe(1);
    expect(forced.err).toContain('gridemu: cannot download http://127.0.0.1:1/l_kth_sp2/');
    expect(readdirSync(dir)).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz']);
    expect(readFileSync(there, 'utf8')).toBe('1 0 1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n');
  });

  it('rejects unknown commands and options, naming what a typo most likely meant', () => {
    const command = gridemu(['simulat']);
    expect(command.code).toBe(2);
    expect(command.err).toContain('unknown command "simulat"; did you mean simulate?');
    expect(gridemu(['zzz']).err).toMatch(/unknown command "zzz"\n/);
    const trace = gridemu(['trace', 'inf', 'x.swf']);
    expect(trace.code).toBe(2);
    expect(trace.err).toContain('unknown trace command "inf"; did you mean info?');
    const bogus = gridemu(['simulate', 'examples/quickstart.yaml', '--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.err).toBe(
      'gridemu: unknown option --bogus for gridemu simulate (gridemu simulate --help lists its options)\n',
    );
    const speedUp = gridemu(['run', 'examples/quickstart-live.yaml', '--speed-up', '100']);
    expect(speedUp.code).toBe(2);
    expect(speedUp.err).toContain('unknown option --speed-up for gridemu run; did you mean --speedup?');
    expect(gridemu(['sweep', 'examples/quickstart.yaml', '--very', 'seed=1,2']).err).toContain('did you mean --vary?');
    const whole = gridemu(['simulate', 'examples/quickstart.yaml', '--whole-delays']);
    expect(whole.code).toBe(2);
    expect(whole.err).toMatch(/--whole-delays replays a live run: give it with --network-from LIVE_DIR/);
    const keep = gridemu(['fuzz', '--seeds', '1', '--keep']);
    expect(keep.code).toBe(2);
    expect(keep.err).toContain('fuzz: --keep is an option of --live: add --live, or leave it out');
    const store = gridemu(['fuzz', '--live', '--journal-store', 'disk']);
    expect(store.code).toBe(2);
    expect(store.err).toContain('--journal-store must be file or jetstream, got "disk"');
  });
});

describe('help and trace info', () => {
  it('has --help everywhere, each line within a 100-column terminal', () => {
    const commands = ['run', 'simulate', 'sweep', 'compare', 'check', 'report', 'fuzz', 'delay-proxy'];
    for (const args of [
      ['--help'],
      ...[...commands, 'credentials', 'validate', 'trace'].map((c) => [c, '--help']),
      ['trace', 'info', '--help'],
    ]) {
      const r = gridemu(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.out).toMatch(/Usage: gridemu/);
      const wide = r.out.split('\n').filter((line) => line.length > 100);
      expect(wide, `gridemu ${args.join(' ')}`).toEqual([]);
    }
  });

  it('describes the slice a source reads, its median run, and what a speed-up leaves the guard', () => {
    const dir = tmp();
    // Six jobs 100 s apart on a 10-processor machine, running 0 (read as 1), 20, 40, ... 100 s.
    const swf = [
      '; MaxProcs: 10',
      ...[0, 20, 40, 60, 80, 100].map((run, i) =>
        [i + 1, i * 100, 0, run, 2, -1, -1, 2, 200, -1, 1, 1, 1, -1, 1, -1, -1, -1].join(' '),
      ),
    ].join('\n');
    const file = join(dir, 'six.swf');
    writeFileSync(file, swf + '\n');
    // Jobs 3 to 5 (skip 2, 3 of them): submits 200 .. 400, runs 40, 60, 80 s; 2 x 180 s of work
    // on 10 processors over 200 s is 18%.
    const r = gridemu(['trace', 'info', file, '--skip', '2', '--jobs', '3', '--speedup', '1000']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('jobs            3 (after skipping 2)\n');
    expect(r.out).toContain('span            200 s (0.0 days), submits 200 .. 400\n');
    expect(r.out).toContain('offered load    18.0% of the machine over the span\n');
    expect(r.out).toContain('median run      60 s\n');
    expect(r.out).toContain('live wall time  0 s for the submissions at speed-up 1000\n');
    // 5% of 60 s is 3 emulated s: 3 wall ms at 1000x.
    expect(r.out).toContain(
      "guard budget    3.0 wall ms for one hop or a timer's lag: 5% of the median run at speed-up 1000\n",
    );
    const json = JSON.parse(gridemu(['trace', 'info', file, '--jobs', '4', '--speedup', '10', '--json']).out);
    // Runs 1 (from 0), 20, 40, 60: the lower middle is 20; 300 s of submissions at 10x is 30 wall s.
    expect(json).toMatchObject({ records: 4, medianRun_s: 20, slice: { skip: 0, jobs: 4 } });
    expect(json.live).toEqual({ speedup: 10, submissions_wall_s: 30, guard_ms: 100 });
    expect(gridemu(['trace', 'info', file, '--jobs', '4']).out).toContain("jobs            4 (the trace's first 4)\n");
    expect(gridemu(['trace', 'info', file, '--jobs', '7']).out).toContain(
      'jobs            6 (the whole trace; fewer than the 7 asked for, which a workload source would refuse)\n',
    );
    // A slice past the end, or fewer jobs than asked: said, as a source would refuse them.
    const past = gridemu(['trace', 'info', file, '--skip', '6']);
    expect(past.code).toBe(2);
    expect(past.err).toContain('no jobs after skipping 6');
    expect(gridemu(['trace', 'info', file, '--skip', '4', '--jobs', '5']).out).toContain(
      'jobs            2 (after skipping 4; fewer than the 5 asked for, which a workload source would refuse)',
    );
    expect(gridemu(['trace', 'info', file, '--jobs', '0']).err).toContain(
      '--jobs must be an integer of 1 or more, got "0"',
    );
    // One job is a span of 0 s: no rate of arrival, so no load (not 0%, which would say an idle machine).
    const one = gridemu(['trace', 'info', file, '--skip', '3', '--jobs', '1']);
    expect(one.out).toContain('offered load    undefined: every submission at one time (a span of 0 s)\n');
    expect(
      JSON.parse(gridemu(['trace', 'info', file, '--skip', '3', '--jobs', '1', '--json']).out).offeredLoad,
    ).toBeNull();
  });

  it('reads a GWF trace and a Batsim workload as their sources read them, by name or --format', () => {
    const dir = tmp();
    // GWF: SWF's first eleven fields, then names; no machine size anywhere in the file.
    const gwf = ['# a comment', '1\t0\t-1\t100\t2\t-1\t-1\t2\t200\t-1\t1\tu1\tg1', '2 50 -1 300 4 -1 -1 4 -1 -1 1 u2'];
    writeFileSync(join(dir, 'grid.gwf'), gwf.join('\n') + '\n');
    const g = gridemu(['trace', 'info', join(dir, 'grid.gwf')]);
    expect(g.code, g.err).toBe(0);
    expect(g.out).toContain(`file            ${join(dir, 'grid.gwf')} (GWF)\n`);
    expect(g.out).toContain('span            50 s (0.0 days), submits 0 .. 50\n');
    expect(g.out).toContain("processors      4 (the widest job's: the file does not give the machine's size)\n");
    // 100 x 2 + 300 x 4 = 1400 processor-seconds on 4 processors over 50 s.
    expect(g.out).toContain('offered load    700.0% of the machine over the span\n');
    expect(g.out).toContain('anomalies       run<=0: 0, no requested time: 1, run>requested: 0');
    // The same lines under another name, read as GWF when asked; read as SWF, they are malformed.
    writeFileSync(join(dir, 'grid.txt'), gwf.join('\n') + '\n');
    expect(gridemu(['trace', 'info', join(dir, 'grid.txt'), '--format', 'gwf']).out).toContain('submits 0 .. 50\n');
    expect(gridemu(['trace', 'info', join(dir, 'grid.txt')]).code).toBe(2);
    // Batsim: nb_res is the machine, a delay profile each job's run.
    const batsim = {
      nb_res: 16,
      jobs: [
        { id: 1, subtime: 0, res: 4, walltime: 100, profile: 'short' },
        { id: 2, subtime: 100, res: 8, profile: 'long' },
      ],
      profiles: { short: { type: 'delay', delay: 60 }, long: { type: 'delay', delay: 500 } },
    };
    writeFileSync(join(dir, 'w.json'), JSON.stringify(batsim));
    const b = JSON.parse(gridemu(['trace', 'info', join(dir, 'w.json'), '--json']).out);
    expect(b).toMatchObject({
      format: 'batsim',
      records: 2,
      machineProcs: 16,
      machineProcsFrom: 'nb_res',
      maxProcsUsed: 8,
      span_s: 100,
      medianRun_s: 60,
    });
    // (60 x 4 + 500 x 8) / (16 x 100)
    expect(b.offeredLoad).toBeCloseTo(2.65, 6);
    expect(gridemu(['trace', 'info', join(dir, 'w.json'), '--lenient']).err).toContain(
      '--lenient applies only to line-based traces (swf, gwf), not to Batsim JSON',
    );
    expect(gridemu(['trace', 'info', join(dir, 'w.json'), '--format', 'gfw']).err).toContain(
      '--format must be swf, gwf or batsim, got "gfw"; did you mean gwf?',
    );
  });

  it.skipIf(kth.skip)(kth.title('describes a trace found by its archive name'), () => {
    const r = gridemu(['trace', 'info', 'KTH-SP2-1996-2.1-cln.swf.gz']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/jobs\s+28476/);
    expect(r.out).toMatch(/processors\s+100/);
    expect(r.out).toMatch(/offered load\s+\d+\.\d%/);
  });
});

describe('gridemu credentials', () => {
  it("writes the server's configuration and a user per process, owner-only, held to their own subjects; --multi-host adds the proxies and the leaf node", () => {
    const out = join(tmp(), 'creds');
    const r = gridemu(['credentials', 'deploy/compose/experiment.yaml', '--run', 'c-run', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const names = readdirSync(out).sort();
    expect(names).toEqual(['driver.env', 'nats-server.conf', 's1.env', 's2.env', 's3.env', 's4.env']);
    for (const n of names) expect(statSync(join(out, n)).mode & 0o077, n).toBe(0);
    const conf = JSON.parse(readFileSync(join(out, 'nats-server.conf'), 'utf8')) as {
      authorization: { users: { user: string; password: string; permissions: { publish: { allow: string[] } } }[] };
    };
    const s2 = conf.authorization.users.find((u) => u.user === 's2')!;
    expect(readFileSync(join(out, 's2.env'), 'utf8')).toBe(`NATS_USER=s2\nNATS_PASSWORD=${s2.password}\n`);
    expect(s2.permissions.publish.allow).toContain('gridemu-ctl.c-run.*.s2');
    expect(s2.permissions.publish.allow).not.toContain('gridemu-ctl.c-run.>');
    // Made again, the passwords are new: that is how they are rotated.
    const again = join(tmp(), 'creds');
    gridemu(['credentials', 'deploy/compose/experiment.yaml', '--run', 'c-run', '--out', again]);
    expect(readFileSync(join(again, 's2.env'), 'utf8')).not.toBe(readFileSync(join(out, 's2.env'), 'utf8'));
    const multi = join(tmp(), 'creds');
    expect(
      gridemu([
        'credentials',
        'deploy/compose/multi-host/experiment.yaml',
        '--run',
        'm',
        '--out',
        multi,
        '--multi-host',
      ]).code,
    ).toBe(0);
    expect(readdirSync(multi)).toEqual(expect.arrayContaining(['hub-auth.conf', 'leaf-auth.conf', 'proxy-s3.env']));
    expect(readFileSync(join(multi, 'leaf-auth.conf'), 'utf8')).toMatch(
      /nats-leaf:\/\/leaf:[A-Za-z0-9_-]+@hub-host:7422/,
    );
    expect(gridemu(['credentials', 'deploy/compose/experiment.yaml', '--out', out]).code).toBe(2);
  });

  it('--kubernetes adds a pod per site, each with its own Secret, and the kustomization that makes them', () => {
    const out = join(tmp(), 'creds');
    const r = gridemu([
      'credentials',
      'deploy/k8s/base/experiment.yaml',
      '--run',
      'k8s-run',
      '--out',
      out,
      '--kubernetes',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['kustomization.yaml', 'members.yaml', 's4.env']));
    const members = readFileSync(join(out, 'members.yaml'), 'utf8');
    expect(members.match(/^kind: StatefulSet$/gm)?.length).toBe(4);
    expect(members).toContain('secretName: gridemu-user-s3');
    expect(readFileSync(join(out, 'kustomization.yaml'), 'utf8')).toContain('name: gridemu-user-s3');
    const both = gridemu([
      'credentials',
      'deploy/k8s/base/experiment.yaml',
      '--run',
      'k',
      '--out',
      join(tmp(), 'x'),
      '--kubernetes',
      '--multi-host',
    ]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give one');
  });
});
