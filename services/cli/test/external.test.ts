import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '@gridemu/schemes';
import { schemaProblems } from '@gridemu/testkit';
import { gridemuLive, readCheck, runLiveLines, TEST_WARM_UP_JOBS } from './live-helpers.js';

/**
 * The `external` scheme (docs/external.md): a metascheduler whose choices a user's program makes,
 * speaking JSON lines. The examples are plain Python 3; the tests run them as a user would.
 */
const REPO = resolve(fileURLToPath(import.meta.url), '../../../..');
const MAIN = join(REPO, 'services/cli/dist/main.js');
const tmp = () => mkdtempSync(join(tmpdir(), 'gridemu-external-'));

function gridemu(args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: REPO, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Four sites of different sizes, four synthetic streams an hour apart: loads differ, so greedy moves jobs. */
function grid(meta: string, extra: string[] = []): string {
  return (
    [
      'name: external',
      'seed: 3',
      'sites: [{ id: s1, cpus: 64 }, { id: s2, cpus: 64 }, { id: s3, cpus: 32 }, { id: s4, cpus: 128 }]',
      'workload:',
      '  - { site: s1, synthetic: { jobs: 300 } }',
      '  - { site: s2, synthetic: { jobs: 300 }, shift_h: 1 }',
      '  - { site: s3, synthetic: { jobs: 300 }, shift_h: 2 }',
      '  - { site: s4, synthetic: { jobs: 300 }, shift_h: 3 }',
      'local: { policy: easy }',
      `meta: ${meta}`,
      ...extra,
    ].join('\n') + '\n'
  );
}

function simulate(spec: string): { code: number | null; err: string; out: string } {
  const dir = tmp();
  writeFileSync(join(dir, 'spec.yaml'), spec);
  const r = gridemu(['simulate', join(dir, 'spec.yaml'), '--out', join(dir, 'out'), '--quiet']);
  return { code: r.code, err: r.err, out: join(dir, 'out') };
}

const schema = (name: string) => JSON.parse(readFileSync(join(REPO, 'docs/external', name), 'utf8'));
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);

/** A Python policy: its lines after `import json, sys`, in a file of its own; returns the file. */
function pythonPolicy(body: string[]): string {
  const file = join(tmp(), 'policy.py');
  writeFileSync(file, ['import json, sys', ...body].join('\n') + '\n');
  return file;
}

/**
 * Simulates `program` (a command, run by sh) as the policy on `jobs` jobs a site, with `meta` added
 * to the scheme's options, recording every request it is asked.
 */
function recorded(program: string, jobs: number, meta = ''): { out: string; requests: unknown[] } {
  const dir = tmp();
  const tap = `tee -a ${dir}/requests.jsonl | ${program}`;
  const options = meta ? `, ${meta}` : '';
  const r = simulate(
    grid(`{ scheme: external${options}, command: [sh, -c, "${tap}"] }`).replace(/jobs: 300/g, `jobs: ${jobs}`),
  );
  expect(r.code, r.err).toBe(0);
  return { out: r.out, requests: lines(join(dir, 'requests.jsonl')) };
}

describe('gridemu simulate with an external policy', () => {
  it("the Python least-loaded policy gives paper 001's greedy distributed schedule, byte for byte", () => {
    const external = simulate(grid('{ scheme: external, command: [python3, examples/policies/least_loaded.py] }'));
    expect(external.code, external.err).toBe(0);
    const builtIn = simulate(grid('{ scheme: distributed }'));
    expect(builtIn.code, builtIn.err).toBe(0);
    const jobs = readFileSync(join(external.out, 'jobs.csv'), 'utf8');
    expect(jobs).toBe(readFileSync(join(builtIn.out, 'jobs.csv'), 'utf8'));
    // Not a trivial schedule: greedy moved jobs between sites.
    const summary = JSON.parse(readFileSync(join(external.out, 'summary.json'), 'utf8'));
    expect(summary.counters['jobs.moved']).toBeGreaterThan(0);
    expect(summary.jobs.completed).toBe(1200);
  });

  it('the same policy in JavaScript gives the same schedule', () => {
    const js = simulate(
      grid(`{ scheme: external, command: [${JSON.stringify(process.execPath)}, examples/policies/least_loaded.mjs] }`),
    );
    expect(js.code, js.err).toBe(0);
    const builtIn = simulate(grid('{ scheme: distributed }'));
    expect(readFileSync(join(js.out, 'jobs.csv'), 'utf8')).toBe(readFileSync(join(builtIn.out, 'jobs.csv'), 'utf8'));
  });

  it('a policy may cancel a copy before one has won: that site never runs the job', () => {
    const file = pythonPolicy([
      'for line in sys.stdin:',
      '    r = json.loads(line)',
      '    actions = []',
      '    if r["type"] == "submit":',
      '        j = r["job"]["id"]',
      '        # Copies to s1, s2 and s4 (each fits every job here), then s2 withdrawn at once.',
      '        actions = [{"do": "copies", "job": j, "to": ["s1", "s2", "s4"]}, {"do": "cancel", "job": j, "at": "s2"}]',
      '    print(json.dumps({"v": 1, "actions": actions}), flush=True)',
    ]);
    const r = simulate(grid(`{ scheme: external, command: [python3, "${file}"] }`).replace(/jobs: 300/g, 'jobs: 40'));
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(readFileSync(join(r.out, 'summary.json'), 'utf8'));
    expect(summary.jobs.completed).toBe(160);
    expect(summary.counters['copies.cancelled_by_policy']).toBe(160);
    const [header, ...rows] = readFileSync(join(r.out, 'jobs.csv'), 'utf8').trim().split('\n');
    const exec = header!.split(',').indexOf('exec_site');
    expect(rows.filter((l) => l.split(',')[exec] === 's2')).toEqual([]);
    expect(gridemu(['check', r.out]).code).toBe(0);
  });

  it("with claims: policy, a copy's claim is the policy's to grant or deny", () => {
    const policy = pythonPolicy([
      'for line in sys.stdin:',
      '    r = json.loads(line)',
      '    actions = []',
      '    if r["type"] == "submit":',
      '        actions = [{"do": "copies", "job": r["job"]["id"], "to": ["s3", "s4"]}]',
      '    elif r["type"] == "claim":',
      '        # Never s3 while another copy may still run the job.',
      '        verdict = "deny" if r["site"] == "s3" and len(r["copies"]) > 1 else "grant"',
      '        actions = [{"do": verdict, "job": r["job"], "site": r["site"]}]',
      '    print(json.dumps({"v": 1, "actions": actions}), flush=True)',
    ]);
    // s3 has 32 processors: the synthetic jobs here all fit it and s4.
    const r = recorded(`python3 ${policy}`, 30, 'claims: policy');
    const requests = r.requests as { type: string }[];
    const claims = requests.filter((q) => q.type === 'claim');
    expect(claims.length).toBeGreaterThanOrEqual(120);
    for (const q of claims) expect(schemaProblems(schema('request.schema.json'), q)).toEqual([]);
    const [header, ...rows] = readFileSync(join(r.out, 'jobs.csv'), 'utf8').trim().split('\n');
    const exec = header!.split(',').indexOf('exec_site');
    expect(new Set(rows.map((l) => l.split(',')[exec]))).toEqual(new Set(['s4']));
    expect(gridemu(['check', r.out]).code).toBe(0);
  });

  it('one central policy decides every job, in its own location', () => {
    const r = recorded('python3 examples/policies/least_loaded.py', 50, 'locations: central');
    const submits = r.requests as { type: string; location: string }[];
    expect(submits.filter((q) => q.type === 'submit')).toHaveLength(200);
    expect(new Set(submits.map((q) => q.location))).toEqual(new Set(['central']));
    expect(gridemu(['check', r.out]).code).toBe(0);
    // Copies need an origin site's semaphore: a central policy may not send them.
    const copies = simulate(
      grid('{ scheme: external, locations: central, command: [python3, examples/policies/k_copies.py] }'),
    );
    expect(copies.code).toBe(2);
    expect(copies.err).toMatch(/the external policy at central .*action 1 \(copies\) is for per-site policies/);
  });

  it('the K-copies policy sends copies under the semaphore: every job runs once, gridemu check passes', () => {
    const r = simulate(grid('{ scheme: external, command: [python3, examples/policies/k_copies.py, "3"] }'));
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(readFileSync(join(r.out, 'summary.json'), 'utf8'));
    expect(summary.jobs.completed).toBe(1200);
    expect(summary.counters['copies.sent']).toBeGreaterThan(2 * 1200);
    expect(summary.counters['claims.granted']).toBe(1200);
    const check = gridemu(['check', r.out]);
    expect(check.code, check.out + check.err).toBe(0);
  });
});

describe("the protocol's JSON Schemas (docs/external/) hold for what really crosses it", () => {
  it('every request of a run, and every answer of both example policies, conform', () => {
    const dir = tmp();
    const requests: unknown[] = [];
    const answers: unknown[] = [];
    for (const policy of ['least_loaded.py', 'k_copies.py']) {
      // tee records each line as it passes; the policy sees the same stream.
      const tap = `tee -a ${dir}/requests.jsonl | python3 examples/policies/${policy} | tee -a ${dir}/answers.jsonl`;
      const r = simulate(grid(`{ scheme: external, command: [sh, -c, "${tap}"] }`).replace(/jobs: 300/g, 'jobs: 40'));
      expect(r.code, r.err).toBe(0);
    }
    requests.push(...lines(join(dir, 'requests.jsonl')));
    answers.push(...lines(join(dir, 'answers.jsonl')));
    // The K-copies run's copies claim their jobs, and the policy hears how each claim was answered.
    expect(new Set(requests.map((q) => (q as { type: string }).type))).toEqual(new Set(['hello', 'submit', 'claimed']));
    const granted = requests.filter((q) => (q as { verdict?: string }).verdict === 'grant');
    expect(granted).toHaveLength(160);
    expect(answers.some((a) => JSON.stringify(a).includes('"copies"'))).toBe(true);
    for (const q of requests) expect(schemaProblems(schema('request.schema.json'), q), JSON.stringify(q)).toEqual([]);
    for (const a of answers) expect(schemaProblems(schema('answer.schema.json'), a), JSON.stringify(a)).toEqual([]);
    const timer = {
      v: 1,
      type: 'timer',
      time: 5,
      location: 's1',
      name: 'tick',
      loads: [{ site: 's2', load: 3, free: 2, queued: 0, age_s: 1 }],
    };
    expect(schemaProblems(schema('request.schema.json'), timer)).toEqual([]);
  });

  it("a policy's timers come back as timer requests, on the run's clock", () => {
    const { requests } = recorded(
      `python3 ${pythonPolicy([
        'for line in sys.stdin:',
        '    r = json.loads(line)',
        '    if r["type"] == "submit":',
        '        actions = [{"do": "send", "job": r["job"]["id"], "to": r["location"]}]',
        '    else:',
        '        actions = [{"do": "timer", "after_s": 3600, "name": "hourly"}]',
        '    print(json.dumps({"v": 1, "actions": actions}), flush=True)',
      ])}`,
      20,
    );
    const timers = requests.filter((q) => (q as { type: string }).type === 'timer') as {
      time: number;
      name: string;
      location: string;
    }[];
    expect(timers.length).toBeGreaterThan(4);
    for (const t of timers) expect(schemaProblems(schema('request.schema.json'), t)).toEqual([]);
    // Each site's timers an hour apart, from its hello at the run's start.
    const s1 = timers.filter((t) => t.location === 's1').map((t) => t.time);
    expect(s1.slice(1).map((t, i) => t - s1[i]!)).toEqual(s1.slice(1).map(() => 3600));
    expect(timers.every((t) => t.name === 'hourly')).toBe(true);
  });

  it("an offer hands a job to another site's policy, which decides it", () => {
    const { out, requests } = recorded(
      `python3 ${pythonPolicy([
        'for line in sys.stdin:',
        '    r = json.loads(line)',
        '    actions = []',
        '    if r["type"] == "submit" and r["location"] == "s1":',
        '        actions = [{"do": "offer", "job": r["job"]["id"], "to": "s2"}]',
        '    elif r["type"] in ("submit", "offer"):',
        '        actions = [{"do": "send", "job": r["job"]["id"], "to": r["location"]}]',
        '    print(json.dumps({"v": 1, "actions": actions}), flush=True)',
      ])}`,
      30,
    );
    const offers = requests.filter((q) => (q as { type: string }).type === 'offer');
    expect(offers).toHaveLength(30);
    for (const o of offers) expect(schemaProblems(schema('request.schema.json'), o)).toEqual([]);
    expect(offers.every((o) => (o as { from: string; location: string }).from === 's1')).toBe(true);
    const [header, ...rows] = readFileSync(join(out, 'jobs.csv'), 'utf8').trim().split('\n');
    const col = (name: string) => header!.split(',').indexOf(name);
    const fromS1 = rows.map((l) => l.split(',')).filter((f) => f[col('origin_site')] === 's1');
    expect(fromS1.map((f) => f[col('exec_site')])).toEqual(fromS1.map(() => 's2'));
    expect(gridemu(['check', out]).code).toBe(0);
  });

  it('answers the schema refuses, gridemu refuses too', () => {
    const answer = schema('answer.schema.json');
    const job = { id: 'j1', procs: 1, requested_s: 10, submit_s: 0 };
    const sites = new Map([['s1', 4]]);
    for (const bad of [
      { v: 1 },
      { v: 2, actions: [] },
      { v: 1, actions: [], extra: 1 },
      { v: 1, actions: [{ do: 'send', job: 'j1', to: 's1', colour: 'red' }] },
      { v: 1, actions: [{ do: 'launch', job: 'j1' }] },
      { v: 1, actions: [{ do: 'copies', job: 'j1', to: ['s1', 's1'] }] },
      { v: 1, actions: [{ do: 'timer', after_s: -1, name: 't' }] },
    ]) {
      expect(schemaProblems(answer, bad), JSON.stringify(bad)).not.toEqual([]);
      expect(readAnswer(bad, { sites, job }), JSON.stringify(bad)).toHaveProperty('problem');
    }
    // Copies of an offered job: the schema cannot know the request, gridemu refuses it.
    expect(
      readAnswer({ v: 1, actions: [{ do: 'copies', job: 'j1', to: ['s1'] }] }, { sites, job, offered: true }),
    ).toHaveProperty('problem');
    const good = {
      v: 1,
      actions: [
        { do: 'send', job: 'j1', to: 's1' },
        { do: 'timer', after_s: 60, name: 't' },
        { do: 'cancel', job: 'j0', at: 's1' },
      ],
    };
    expect(schemaProblems(answer, good)).toEqual([]);
    expect(readAnswer(good, { sites, job })).toHaveProperty('actions');
  });
});

describe('an external policy that breaks the protocol: the run stops with exit 2, naming the policy, its site and the line', () => {
  /** A policy that answers the hello, then says `submitAnswer` to a submit or a claim (Python, a str expression over `r`, the request). */
  function policy(submitAnswer: string): string {
    return pythonPolicy([
      'import time',
      'for line in sys.stdin:',
      '    r = json.loads(line)',
      '    if r["type"] not in ("submit", "claim"):',
      '        print(json.dumps({"v": 1, "actions": []}), flush=True)',
      '        continue',
      `    print(${submitAnswer}, flush=True)`,
    ]);
  }
  const send = (fields: string) =>
    `json.dumps({"v": 1, "actions": [{"do": "send", "job": r["job"]["id"], "to": "s1"${fields}}]})`;
  const cases: [string, string, RegExp, string?, string?][] = [
    ['a line that is not JSON', '"not json"', /line 2 of its output is not JSON/],
    [
      'a deny of the last copy of a job (claims: policy)',
      'json.dumps({"v": 1, "actions": [{"do": "copies", "job": r["job"]["id"], "to": ["s1"]}]}) if r["type"] == "submit" else json.dumps({"v": 1, "actions": [{"do": "deny", "job": r["job"], "site": r["site"]}]})',
      /which denies the last copy of job \S+ \(at s1\): the job would never run/,
      undefined,
      'claims: policy',
    ],
    [
      'a cancel of the only copy of a job',
      'json.dumps({"v": 1, "actions": [{"do": "copies", "job": r["job"]["id"], "to": ["s1"]}, {"do": "cancel", "job": r["job"]["id"], "at": "s1"}]})',
      /line 2 of its output, which cancels the last copy of job \S+ \(at s1\): the job would never run/,
    ],
    [
      'an unknown field in an action',
      send(', "colour": "red"'),
      /line 2 of its output: action 1 \(send\) has an unknown field "colour"/,
    ],
    [
      'an unknown site',
      'json.dumps({"v": 1, "actions": [{"do": "send", "job": r["job"]["id"], "to": "s9"}]})',
      /names site "s9", which the grid does not have/,
    ],
    [
      'an unknown job',
      'json.dumps({"v": 1, "actions": [{"do": "send", "job": "nope", "to": "s1"}]})',
      /names job "nope", but the request asked about/,
    ],
    ['another protocol version', 'json.dumps({"v": 2, "actions": []})', /has v 2: this gridemu speaks version 1/],
    ['a job left undecided', 'json.dumps({"v": 1, "actions": []})', /leaves job \S+ without a decision/],
    ['a policy that exits', '(sys.exit(3))', /exited with code 3 before answering request 2/],
    // The answer limit is the spec's (1 s here); the hello, Python's start-up included, has
    // meta.startup_timeout_s (30 s), however busy the machine.
    ['a policy too slow to answer', '(time.sleep(60))', /did not answer request 2 within 1 s/, '1'],
    [
      'two lines for one request',
      `${send('')} + "\\n" + ${send('')}`,
      // Seen as a line no request waited for, or, if it comes after the next request has gone, as
      // that request's answer, which names the wrong job: a stop with exit 2 either way.
      /wrote line 3 of its output when no request was waiting for it|line 3 of its output: action 1 \(send\) names job \S+, but the request asked about/,
    ],
  ];
  for (const [what, answer, message, timeout_s, meta] of cases)
    it(
      what,
      () => {
        const file = policy(answer);
        const limit = `${timeout_s ? `, answer_timeout_s: ${timeout_s}` : ''}${meta ? `, ${meta}` : ''}`;
        const r = simulate(grid(`{ scheme: external, command: [python3, "${file}"]${limit} }`));
        expect(r.code, r.err).toBe(2);
        expect(r.err).toMatch(/the external policy at s\d/);
        expect(r.err).toMatch(message);
      },
      120_000,
    );

  it('a command that cannot be started', () => {
    const r = simulate(grid('{ scheme: external, command: [/nonexistent/policy] }'));
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/the external policy at s\d \(\/nonexistent\/policy\) could not be started/);
  });

  it('an experiment file without a command, or with unknown locations, names the field', () => {
    expect(simulate(grid('{ scheme: external }')).err).toMatch(/meta.command: is required/);
    expect(simulate(grid('{ scheme: external, command: [python3, x.py], locations: everywhere }')).err).toMatch(
      /meta.locations: /,
    );
  });
});

describe('gridemu run with an external policy', () => {
  it('a policy that breaks the protocol over NATS stops the run with exit 2, naming it', async () => {
    const dir = tmp();
    const file = pythonPolicy([
      'for line in sys.stdin:',
      '    print(json.dumps({"v": 1, "actions": [], "colour": "red"}), flush=True)',
    ]);
    writeFileSync(
      join(dir, 'spec.yaml'),
      grid(`{ scheme: external, command: [python3, "${file}"] }`, [
        `live: { speedup: 20000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
      ]).replace(/jobs: 300/g, 'jobs: 10'),
    );
    const { code, err } = await gridemuLive([
      'run',
      join(dir, 'spec.yaml'),
      '--out',
      join(dir, 'out'),
      '--timeout',
      '120',
    ]).done;
    expect(code, err).toBe(2);
    expect(err).toMatch(
      /the external policy at s\d .* line 1 of its output: the answer has an unknown field \\?"colour/,
    );
  });

  it('a central policy over NATS, in a process of its own', async () => {
    const { out, s } = await runLiveLines(
      grid('{ scheme: external, locations: central, command: [python3, examples/policies/least_loaded.py] }', [
        'network: { latency_ms: 10, jitter_ms: 2 }',
        `live: { speedup: 20000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
      ])
        .replace(/jobs: 300/g, 'jobs: 30')
        .trimEnd()
        .split('\n'),
    );
    expect(Object.keys(s.live.processes).sort()).toEqual(['central', 'driver', 's1', 's2', 's3', 's4']);
    expect(s.jobs.completed).toBe(120);
    expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
  });

  it('over NATS with latency and a crash of one site: its policy restarts with it and is asked again what it was asked, every job runs once', async () => {
    // Each policy process records what it is asked in a file of its own ($$: its shell's pid).
    const dir = tmp();
    const tap = `tee ${dir}/requests-$$$$.jsonl | python3 examples/policies/least_loaded.py`;
    const { out, s } = await runLiveLines(
      grid(`{ scheme: external, command: [sh, -c, "${tap}"] }`, [
        'network: { latency_ms: 10, jitter_ms: 2 }',
        `live: { speedup: 20000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
        'faults:',
        '  crash: [{ process: s2, at_s: 60000, down_s: 5000 }]',
      ])
        .replace(/jobs: 300/g, 'jobs: 60')
        .trimEnd()
        .split('\n'),
    );
    expect(s.jobs.completed).toBe(240);
    expect(s.live.rejoins).toHaveLength(1);
    expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
    // s2 had two policy processes; the second was asked, in order, everything the first was (the
    // journal's replay), then went on.
    // The first process stopped writing at the crash, the second after it: their files' times order them.
    const asked = readdirSync(dir)
      .filter((f) => f.startsWith('requests-'))
      .map((f) => join(dir, f))
      .sort((x, y) => statSync(x).mtimeMs - statSync(y).mtimeMs)
      .map((f) => readFileSync(f, 'utf8').trim().split('\n'))
      .filter((ls) => (JSON.parse(ls[0]!) as { location: string }).location === 's2');
    expect(asked).toHaveLength(2);
    const [first, second] = asked as [string[], string[]];
    expect((JSON.parse(second[0]!) as { type: string }).type).toBe('hello');
    // The journal holds what was delivered; a request the dead process was asked but had not
    // answered in a stored turn may be missing, never one it had.
    const key = (l: string) => {
      const q = JSON.parse(l) as { type: string; job?: { id: string } };
      return `${q.type}:${q.job?.id ?? ''}`;
    };
    const replayed = new Set(second.map(key));
    expect(first.slice(0, -1).filter((l) => !replayed.has(key(l)))).toEqual([]);
  });
});
