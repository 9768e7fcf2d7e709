import type { Job } from '@gridemu/model';
import type { FieldCheck, MessageShapes } from '@gridemu/protocol';

/** One VO's usage at a site, as its monitor saw it. */
export interface VoUsage {
  readonly vo: string;
  /** CPUs its running jobs hold (BA, §2.2). */
  readonly running_cpus: number;
  /** CPUs its queued jobs ask for. */
  readonly queued_cpus: number;
  readonly queued_jobs: number;
  /** CPU-seconds it used in the current epoch (EA, §2.2). */
  readonly epoch_cpu_s: number;
  /** Disk its jobs hold, MB (IA, §2.3). */
  readonly disk_mb: number;
}

/** Monitor → every decision point, on the usage topic: a site's per-VO usage now. */
export interface GruberUsage {
  readonly type: 'gruber.usage';
  readonly site: string;
  readonly time_s: number;
  readonly cpus: number;
  readonly free_cpus: number;
  readonly vos: readonly VoUsage[];
}
/** Monitor → its site's resource manager: your usage, please. */
export interface GruberUsageQuery {
  readonly type: 'gruber.usage-query';
}
/** Monitor timer: report now. */
export interface GruberMonitorTick {
  readonly type: 'timer.gruber-monitor';
}

/** Submit host → its decision point: which sites are available for this job of this VO? */
export interface GruberQuery {
  readonly type: 'gruber.query';
  readonly queryId: number;
  readonly jobId: string;
  readonly vo: string;
  readonly cpus: number;
  readonly disk_mb: number;
  /** Sites the job failed at: never offered again (§4.2.4). */
  readonly exclude: readonly string[];
}
/** Decision point → submit host: the available sites, with how used each is (for G-LU). */
export interface GruberAvailable {
  readonly type: 'gruber.available';
  readonly queryId: number;
  readonly sites: readonly string[];
  /** Fraction of each site's CPUs busy or asked for, in the same order. */
  readonly used: readonly number[];
}
/** Submit host → its decision point: I sent a job there (counted until the site's next report covers it). */
export interface GruberChosen {
  readonly type: 'gruber.chosen';
  readonly site: string;
  readonly vo: string;
  readonly cpus: number;
  readonly disk_mb: number;
}
/** Decision point → the others (DI-GRUBER): a dispatch one of my submit hosts made. */
export interface GruberDecision {
  readonly type: 'gruber.decision';
  readonly engine: number;
  readonly site: string;
  readonly vo: string;
  readonly cpus: number;
  readonly disk_mb: number;
  readonly time_s: number;
}

/** Submit host → a site's resource manager: run this attempt of the job. */
export interface GruberSubmit {
  readonly type: 'gruber.submit';
  readonly job: Job;
  readonly attempt: number;
}
/** Submit host → resource manager: take the attempt back if it has not started (starvation). */
export interface GruberWithdraw {
  readonly type: 'gruber.withdraw';
  readonly jobId: string;
  readonly attempt: number;
}
/** Resource manager → submit host: withdrawn before it started. */
export interface GruberWithdrawn {
  readonly type: 'gruber.withdrawn';
  readonly jobId: string;
  readonly attempt: number;
}
export interface GruberStarted {
  readonly type: 'gruber.started';
  readonly jobId: string;
  readonly attempt: number;
  readonly site: string;
  readonly time_s: number;
  /** When it reached the site's queue (Delay, §3.1). */
  readonly queued_s: number;
  readonly resources: string;
}
export interface GruberEnded {
  readonly type: 'gruber.ended';
  readonly jobId: string;
  readonly attempt: number;
  readonly site: string;
  readonly time_s: number;
}
/** Resource manager → submit host: the attempt failed (Tables XI, XII), before or after it started. */
export interface GruberFailed {
  readonly type: 'gruber.failed';
  readonly jobId: string;
  readonly attempt: number;
  readonly site: string;
  readonly time_s: number;
  readonly category: string;
}
/** Resource manager timer: a running attempt fails now (an application failure part-way through). */
export interface GruberRunFails {
  readonly type: 'timer.gruber-run-fails';
  readonly jobId: string;
}

/** Resource manager timer: its next pass over the queue (a scheduling cycle's tick, or a misbehaving period's end). */
export interface GruberManagerPass {
  readonly type: 'timer.gruber-manager-pass';
}

/** Submit host timers. */
export interface GruberStarved {
  readonly type: 'timer.gruber-starved';
  readonly jobId: string;
  readonly attempt: number;
}
export interface GruberQueryTimeout {
  readonly type: 'timer.gruber-query-timeout';
  readonly jobId: string;
  readonly queryId: number;
}
export interface GruberRetry {
  readonly type: 'timer.gruber-retry';
  readonly jobId: string;
  readonly token: number;
}

declare module '@gridemu/protocol' {
  interface MessageCatalogue {
    'gruber.usage': GruberUsage;
    'gruber.usage-query': GruberUsageQuery;
    'timer.gruber-monitor': GruberMonitorTick;
    'gruber.query': GruberQuery;
    'gruber.available': GruberAvailable;
    'gruber.chosen': GruberChosen;
    'gruber.decision': GruberDecision;
    'gruber.submit': GruberSubmit;
    'gruber.withdraw': GruberWithdraw;
    'gruber.withdrawn': GruberWithdrawn;
    'gruber.started': GruberStarted;
    'gruber.ended': GruberEnded;
    'gruber.failed': GruberFailed;
    'timer.gruber-run-fails': GruberRunFails;
    'timer.gruber-manager-pass': GruberManagerPass;
    'timer.gruber-starved': GruberStarved;
    'timer.gruber-query-timeout': GruberQueryTimeout;
    'timer.gruber-retry': GruberRetry;
  }
}

const MAX_LIST = 10_000;

function listOf(item: FieldCheck): FieldCheck {
  return (v) => {
    if (!Array.isArray(v) || v.length > MAX_LIST) return `must be a list (at most ${MAX_LIST} items)`;
    for (let i = 0; i < v.length; i++) {
      const p = item(v[i]);
      if (p) return `[${i}] ${p}`;
    }
    return undefined;
  };
}

const name: FieldCheck = (v) =>
  typeof v === 'string' && v.length > 0 && v.length <= 256 ? undefined : 'must be a non-empty string';
const nonNegative: FieldCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'must be a non-negative number';

const VO_USAGE_FIELDS = ['vo', 'running_cpus', 'queued_cpus', 'queued_jobs', 'epoch_cpu_s', 'disk_mb'];
const voUsage: FieldCheck = (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be a map';
  const o = v as Record<string, unknown>;
  if (name(o['vo'])) return '.vo must be a non-empty string';
  for (const f of VO_USAGE_FIELDS.slice(1)) if (nonNegative(o[f])) return `.${f} must be a non-negative number`;
  const extra = Object.keys(o).find((k) => !VO_USAGE_FIELDS.includes(k));
  return extra === undefined ? undefined : `has an unexpected field "${extra.slice(0, 60)}"`;
};

/** What GRUBER's actors add to the core catalogue, with their shapes. */
export const GRUBER_MESSAGES: MessageShapes = {
  'gruber.usage': { site: 'string', time_s: 'number', cpus: 'count', free_cpus: 'count', vos: listOf(voUsage) },
  'gruber.usage-query': {},
  'timer.gruber-monitor': {},
  'gruber.query': {
    queryId: 'count',
    jobId: 'string',
    vo: 'string',
    cpus: 'count',
    disk_mb: nonNegative,
    exclude: listOf(name),
  },
  'gruber.available': { queryId: 'count', sites: listOf(name), used: listOf(nonNegative) },
  'gruber.chosen': { site: 'string', vo: 'string', cpus: 'count', disk_mb: nonNegative },
  'gruber.decision': {
    engine: 'count',
    site: 'string',
    vo: 'string',
    cpus: 'count',
    disk_mb: nonNegative,
    time_s: 'number',
  },
  'gruber.submit': { job: 'job', attempt: 'count' },
  'gruber.withdraw': { jobId: 'string', attempt: 'count' },
  'gruber.withdrawn': { jobId: 'string', attempt: 'count' },
  'gruber.started': {
    jobId: 'string',
    attempt: 'count',
    site: 'string',
    time_s: 'number',
    queued_s: 'number',
    resources: 'string',
  },
  'gruber.ended': { jobId: 'string', attempt: 'count', site: 'string', time_s: 'number' },
  'gruber.failed': { jobId: 'string', attempt: 'count', site: 'string', time_s: 'number', category: 'string' },
  'timer.gruber-run-fails': { jobId: 'string' },
  'timer.gruber-manager-pass': {},
  'timer.gruber-starved': { jobId: 'string', attempt: 'count' },
  'timer.gruber-query-timeout': { jobId: 'string', queryId: 'count' },
  'timer.gruber-retry': { jobId: 'string', token: 'count' },
};

/**
 * GRUBER's messages that must not be lost: an attempt's submission and withdrawal, and every word
 * of its fate from the site (withdrawn, started, ended, failed), for which nothing asks again. A
 * query and its answer may be lost (the submit host asks again at its timeout), and so may the
 * reports the engines keep their views from (usage, dispatches chosen, DI-GRUBER's decisions):
 * the next replaces or outdates them.
 */
export const GRUBER_DURABLE: readonly string[] = [
  'gruber.submit',
  'gruber.withdraw',
  'gruber.withdrawn',
  'gruber.started',
  'gruber.ended',
  'gruber.failed',
];
