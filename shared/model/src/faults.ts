import { join, NON_NEGATIVE, POSITIVE, PROBABILITY, type FieldReader } from './field-reader.js';
import type { SpecIssue } from './spec-error.js';

/**
 * Faults injected on purpose, applied by both runtimes. Times are emulated seconds.
 * `simulate` decides everything from the seed; `run` kills real processes, holds traffic in the
 * delay proxies and restarts the server.
 */
export interface FaultsSpec {
  /** A process (a site, or a scheme's own location such as `central`) dies at `at_s` and comes back `down_s` later. */
  readonly crash: readonly CrashFault[];
  /** These sites are cut off from every other site from `from_s` to `to_s`. */
  readonly partition: readonly PartitionFault[];
  /** The chance that a cross-site message that may be lost (gossip, claims, grants, cancels) is lost. */
  readonly drop: number;
  /**
   * The NATS server stops at `at_s` and starts again `down_s` later. `simulate` holds every message
   * between two processes meanwhile (a replay of a live run: while its processes were cut off).
   */
  readonly nats_restart: readonly NatsRestartFault[];
}

export interface CrashFault {
  readonly process: string;
  readonly at_s: number;
  readonly down_s: number;
}

export interface PartitionFault {
  readonly sites: readonly string[];
  readonly from_s: number;
  readonly to_s: number;
}

export interface NatsRestartFault {
  readonly at_s: number;
  readonly down_s: number;
}

/** The kinds of fault a `faults:` section may list. */
export const FAULT_KINDS = ['crash', 'partition', 'drop', 'nats_restart'];

export const NO_FAULTS: FaultsSpec = { crash: [], partition: [], drop: 0, nats_restart: [] };

/**
 * Reads `faults:`. `processes` are the names a crash may name (the sites and the scheme's own
 * locations); partitions name sites only.
 */
export function readFaults(
  r: FieldReader,
  raw: unknown,
  siteIds: ReadonlySet<string>,
  processes: ReadonlySet<string>,
): FaultsSpec {
  if (raw === undefined) return NO_FAULTS;
  const o = r.object(raw, 'faults') ?? {};
  r.onlyKeys(o, 'faults', FAULT_KINDS);
  const list = (key: string): Record<string, unknown>[] => {
    if (o[key] === undefined) return [];
    return (r.array(o[key], join('faults', key)) ?? []).flatMap((x, i): Record<string, unknown>[] => {
      const item = r.object(x, join(join('faults', key), i));
      return item ? [item] : [];
    });
  };
  const crash = list('crash').map((c, i) => {
    const path = join('faults.crash', i);
    r.onlyKeys(c, path, ['process', 'at_s', 'down_s']);
    const process = r.string(c['process'], join(path, 'process'));
    if (process && !processes.has(process))
      r.fail(join(path, 'process'), `no process "${process}" (one of: ${[...processes].join(', ')})`);
    return {
      process,
      at_s: r.number(c['at_s'], join(path, 'at_s'), NON_NEGATIVE),
      down_s: r.number(c['down_s'], join(path, 'down_s'), POSITIVE),
    };
  });
  // Two crashes of one process must not overlap: the second would kill a process that is already down.
  const byProcess = new Map<string, CrashFault[]>();
  for (const c of crash) byProcess.set(c.process, [...(byProcess.get(c.process) ?? []), c]);
  for (const [process, cs] of byProcess) {
    const sorted = [...cs].sort((a, b) => a.at_s - b.at_s);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.at_s < sorted[i - 1]!.at_s + sorted[i - 1]!.down_s)
        r.fail(
          'faults.crash',
          `two crashes of ${process} overlap (at ${sorted[i - 1]!.at_s} s for ${sorted[i - 1]!.down_s} s, and at ${sorted[i]!.at_s} s)`,
        );
    }
  }
  const partition = list('partition').map((p, i) => {
    const path = join('faults.partition', i);
    r.onlyKeys(p, path, ['sites', 'from_s', 'to_s']);
    const sites = (r.array(p['sites'], join(path, 'sites')) ?? []).map((s, j) => {
      const id = r.string(s, join(join(path, 'sites'), j));
      if (id && !siteIds.has(id)) r.fail(join(join(path, 'sites'), j), `no site with id "${id}"`);
      return id;
    });
    if (sites.length === 0 && Array.isArray(p['sites'])) r.fail(join(path, 'sites'), 'must list at least one site');
    const from_s = r.number(p['from_s'], join(path, 'from_s'), NON_NEGATIVE);
    const to_s = r.number(p['to_s'], join(path, 'to_s'), NON_NEGATIVE);
    if (to_s <= from_s) r.fail(join(path, 'to_s'), `must be after from_s (${from_s})`);
    return { sites, from_s, to_s };
  });
  const drop = r.number(o['drop'], 'faults.drop', PROBABILITY, 0);
  if (drop >= 1) r.fail('faults.drop', 'must be below 1 (every message lost would stop every run)');
  const nats_restart = list('nats_restart').map((n, i) => {
    const path = join('faults.nats_restart', i);
    r.onlyKeys(n, path, ['at_s', 'down_s']);
    return {
      at_s: r.number(n['at_s'], join(path, 'at_s'), NON_NEGATIVE),
      down_s: r.number(n['down_s'], join(path, 'down_s'), POSITIVE),
    };
  });
  return { crash, partition, drop, nats_restart };
}

/**
 * Fault times are emulated seconds on the run's clock, which starts at the first submission
 * (runEpoch_s) in both runtimes. A fault timed before it would fire at once in a live run and
 * never in a simulation: two experiments from one file. So it is an error, in both.
 */
export function faultTimeIssues(faults: FaultsSpec, firstSubmit_s: number): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const check = (path: string, t: number) => {
    if (t < firstSubmit_s)
      issues.push({
        path,
        message: `is ${t} s, before the first submission at ${firstSubmit_s} s: fault times are emulated seconds on the run's clock, which starts at the first submission (give a time from ${firstSubmit_s} on)`,
      });
  };
  faults.crash.forEach((c, i) => check(join(join('faults.crash', i), 'at_s'), c.at_s));
  faults.partition.forEach((p, i) => check(join(join('faults.partition', i), 'from_s'), p.from_s));
  faults.nats_restart.forEach((n, i) => check(join(join('faults.nats_restart', i), 'at_s'), n.at_s));
  return issues;
}
