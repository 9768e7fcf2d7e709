import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecError, type Job, type SpecIssue } from '@gridemu/model';
import { jobsCsvText, type JobRecord } from '@gridemu/metrics';
import { loadExperimentWorkload as loadWorkload, parseExperiment, simulate } from '../src/index.js';
import { failedChecks, REPO_ROOT, specOf } from './helpers.js';

const job = (id: string, origin: string, procs: number, run_s: number, submit_s = 0): Job => ({
  id,
  workload: 'w',
  origin,
  submit_s,
  run_s,
  estimate_s: run_s,
  procs,
});
/** The issues an experiment file's validation reports. */
function problems(text: string): SpecIssue[] {
  try {
    parseExperiment(text, 'x.yaml');
  } catch (err) {
    if (err instanceof SpecError) return [...err.issues];
    throw err;
  }
  return [];
}
const csv = (records: readonly JobRecord[]) => jobsCsvText(records);

describe('faults in simulation (issue 11)', () => {
  it('a crash loses the runs on the site, which run again from the start when it is back (hand-checked)', () => {
    // s1 (4 CPUs): a (4 CPUs, 100 s) starts at 0; b (2 CPUs) waits. s1 dies at 50 and is back at 80:
    // a's run [0, 50) is lost; a runs again 80..180, then b 180..190.
    const spec = specOf({
      sites: [
        { id: 's1', cpus: 4 },
        { id: 's2', cpus: 4 },
      ],
      faults: { crash: [{ process: 's1', at_s: 50, down_s: 30 }], partition: [], drop: 0, nats_restart: [] },
    });
    const { records, counters } = simulate(spec, [job('a', 's1', 4, 100), job('b', 's1', 2, 10, 1)]);
    const [a, b] = records;
    expect([a!.start_s, a!.finish_s, a!.lostRuns]).toEqual([80, 180, [{ site: 's1', start_s: 0, end_s: 50 }]]);
    expect([b!.start_s, b!.finish_s, b!.lostRuns]).toEqual([180, 190, []]);
    expect(counters['jobs.lost_runs']).toBe(1);
    const [header, first] = csv(records).split('\n');
    expect(first!.split(',')[header!.split(',').indexOf('restarts')]).toBe('1');
  });

  it('centralized: a submission waits out the central process, and a lost run goes back to the head of the central queue (hand-checked)', () => {
    // central is down 5..25: b, submitted at 10, is placed at 25 on s2 (s1 is full with a) and runs
    // to 35. s1 dies at 50 and is back at 80: a's run [0, 50) is lost; central places it again at 80.
    const spec = specOf({
      sites: [
        { id: 's1', cpus: 4 },
        { id: 's2', cpus: 4 },
      ],
      meta: { scheme: 'centralized', k: 1, load_period_s: 60, claim_timeout_s: 5, claim: 'hold' },
      faults: {
        crash: [
          { process: 'central', at_s: 5, down_s: 20 },
          { process: 's1', at_s: 50, down_s: 30 },
        ],
        partition: [],
        drop: 0,
        nats_restart: [],
      },
    });
    const { records } = simulate(spec, [job('a', 's1', 4, 100), job('b', 's2', 2, 10, 10)]);
    const [a, b] = records;
    expect([b!.execSite, b!.start_s, b!.finish_s, b!.lostRuns.length]).toEqual(['s2', 25, 35, 0]);
    expect([a!.execSite, a!.start_s, a!.finish_s, a!.lostRuns]).toEqual([
      's1',
      80,
      180,
      [{ site: 's1', start_s: 0, end_s: 50 }],
    ]);
  });

  it('a job submitted while its site is down waits for it (a submission is durable)', () => {
    const spec = specOf({
      sites: [{ id: 's1', cpus: 4 }],
      faults: { crash: [{ process: 's1', at_s: 5, down_s: 20 }], partition: [], drop: 0, nats_restart: [] },
    });
    const { records } = simulate(spec, [job('a', 's1', 1, 10, 10)]);
    expect([records[0]!.start_s, records[0]!.finish_s]).toEqual([25, 35]);
  });

  it('K copies under crashes of the origin and others, a partition and loss: each job runs once, none lost, same bytes per seed', async () => {
    const file = resolve(REPO_ROOT, 'examples/faults-k4.yaml');
    const { spec } = parseExperiment(readFileSync(file, 'utf8'), file);
    const { jobs } = await loadWorkload(spec, { specFile: file });
    const first = simulate(spec, jobs);
    const again = simulate(spec, jobs);
    expect(csv(again.records)).toBe(csv(first.records));
    expect(failedChecks(spec, jobs.length, first.records)).toEqual([]);
    expect(first.counters['jobs.lost_runs']).toBeGreaterThan(5);
    expect(first.counters['messages.dropped']).toBeGreaterThan(0);
    expect(first.counters['messages.held_by_partition']).toBeGreaterThan(0);
    expect(first.counters['claims.granted']).toBe(jobs.length); // one grant per job, the origin's crash notwithstanding
  });

  it('refuses faults for a scheme that does not recover from them, naming the field', () => {
    const issues = problems(
      'name: x\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ site: s1, synthetic: { jobs: 5 } }]\nmeta: { scheme: unified }\nfaults: { drop: 0.1 }\n',
    );
    expect(issues.map((i) => `${i.path}: ${i.message}`).join('\n')).toMatch(
      /^faults: scheme "unified" does not recover from faults yet/,
    );
    const journal = problems(
      'name: x\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ site: s1, synthetic: { jobs: 5 } }]\nmeta: { scheme: unified }\nlive: { journal: true }\n',
    );
    expect(journal.map((i) => `${i.path}: ${i.message}`).join('\n')).toMatch(
      /^live\.journal: scheme "unified" does not recover from a restart yet/,
    );
    expect(
      problems(
        'name: x\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ site: s1, synthetic: { jobs: 5 } }]\nlive: { journal: yes please }\n',
      ).map((i) => i.path),
    ).toEqual(['live.journal']);
  });

  it('refuses overlapping crashes of one process and unknown sites', () => {
    const issues = problems(
      'name: x\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ site: s1, synthetic: { jobs: 5 } }]\nfaults: { crash: [{ process: s1, at_s: 10, down_s: 100 }, { process: s1, at_s: 50, down_s: 5 }, { process: s9, at_s: 1, down_s: 1 }], partition: [{ sites: [s7], from_s: 5, to_s: 1 }] }\n',
    );
    const text = issues.map((i) => `${i.path}: ${i.message}`).join('\n');
    expect(text).toContain('faults.crash[2].process: no process "s9"');
    expect(text).toContain('two crashes of s1 overlap');
    expect(text).toContain('faults.partition[0].sites[0]: no site with id "s7"');
    expect(text).toContain('faults.partition[0].to_s: must be after from_s');
  });

  it("takes a crash of the scheme's own processes only: central under centralized, not under k-distributed", () => {
    const crashCentral = (meta: string) =>
      problems(
        `name: x\nsites: [{ id: s1, cpus: 4 }, { id: s2, cpus: 4 }]\nworkload: [{ site: s1, synthetic: { jobs: 5 } }]\nmeta: ${meta}\nfaults: { crash: [{ process: central, at_s: 10, down_s: 100 }] }\n`,
      ).map((i) => `${i.path}: ${i.message}`);
    expect(crashCentral('{ scheme: centralized }')).toEqual([]);
    expect(crashCentral('{ scheme: k-distributed, k: 2 }')).toEqual([
      'faults.crash[0].process: no process "central" (one of: s1, s2)',
    ]);
  });
});
