import { decode, encode } from '@msgpack/msgpack';
import { PROTOCOL_VERSION } from './codec.js';

/**
 * The control plane of a live run: how its processes find each other, agree on the clock's epoch,
 * and hand in what they counted. The driver leads; every other process (a site, the central
 * metascheduler) is a member. Subjects are `gridemu-ctl.<run>.<kind>.<sender>`, apart from the
 * actors' `gridemu.<run>.…`, so no site id can collide with them. The sender token is who published:
 * a member's name, `driver`, or the orchestrator (`gridemu run`'s own process); a process's NATS user
 * may publish only on subjects naming itself, and receivers drop a message its sender may not send
 * (controlSenderProblem): the driver's kinds from anyone but the driver, a member's naming another.
 *
 *   member → driver   hello (request; the reply is the plan: the experiment as data, overrides applied, and,
 *                     to a member restarted after a crash, the clock of the started run to resume on)
 *   member → driver   ready, heartbeat, failed, report, rejoined (a restarted process caught up; sent
 *                     again until the driver's `welcomed` names it, since it may go out while the
 *                     process's client is still reconnecting, and be lost)
 *   driver → all      start (epoch, speed-up), progress, end, abort, welcomed (a rejoin was heard)
 *   driver → orchestrator   tally (request, before summary.json is written; the reply, `tallied`, is what
 *                     `gridemu run`'s own process did to the run: faults injected, processes restarted.
 *                     A driver with no orchestrator, in compose or Kubernetes, gets no reply and goes on)
 */
export type ControlMessage =
  | {
      readonly kind: 'hello';
      readonly member: string;
      /** A restart standing by for a planned crash, asking early so that it can follow its predecessor's journal. */
      readonly standby?: boolean;
    }
  | { readonly kind: 'plan'; readonly experiment: Record<string, unknown>; readonly resume?: RunClock }
  | { readonly kind: 'ready'; readonly member: string; readonly pid: number; readonly http: string }
  /** A process that chose its own HTTP port (`--http-port 0`) says where it serves /metrics. */
  | { readonly kind: 'serving'; readonly member: string; readonly http: string }
  | { readonly kind: 'start'; readonly epoch_s: number; readonly wallEpoch_ms: number; readonly speedup: number }
  | { readonly kind: 'heartbeat'; readonly member: string; readonly rss_mb: number }
  | { readonly kind: 'failed'; readonly member: string; readonly error: string }
  | {
      readonly kind: 'progress';
      readonly finished: number;
      readonly total: number;
      readonly now_s: number;
      readonly wall_s: number;
    }
  | { readonly kind: 'end' }
  | { readonly kind: 'abort'; readonly reason: string }
  | { readonly kind: 'report'; readonly member: string; readonly report: MemberReport }
  | { readonly kind: 'rejoined'; readonly member: string; readonly rejoin: Rejoin }
  /** The driver heard `member`'s rejoin as `incarnation` (answered to every copy it hears). */
  | { readonly kind: 'welcomed'; readonly member: string; readonly incarnation: number }
  | { readonly kind: 'tally' }
  | { readonly kind: 'tallied'; readonly tally: OrchestratorTally };

export type ControlKind = ControlMessage['kind'];

/** The clock every process of a started run shares (what `start` announced). */
export interface RunClock {
  readonly epoch_s: number;
  readonly wallEpoch_ms: number;
  readonly speedup: number;
}

/** What a member counted during the run, handed to the driver at the end for summary.json. */
export interface MemberReport {
  readonly pid: number;
  /** Resident memory at the end of the run, and its peak as sampled by heartbeats. */
  readonly rss_mb: number;
  readonly peak_rss_mb: number;
  readonly cpu_s: number;
  /**
   * CPU seconds since this process took part in the run: from the clock's start, or from a
   * restart's resume. `cpu_s` also counts start-up and the warm-up, which a journal does not change.
   */
  readonly run_cpu_s?: number;
  /** `per_hour`: messages sent per emulated hour, by the hour's number (time_s / 3600, rounded down). */
  readonly messages: {
    readonly all: Record<string, number>;
    readonly cross_site: Record<string, number>;
    readonly per_hour?: Record<string, number>;
  };
  readonly counters: Record<string, number>;
  /** One-way latency seen by this member's actors, per link `from->to`: a LatencyHistogram's state. */
  readonly latency: Record<string, LatencyState>;
  /** How late timers fired, in wall milliseconds (event-loop lag and timer granularity). */
  readonly timer_lag: LatencyState;
  /**
   * The delay the schedule felt per link `from->to` (locations, `driver` included, a location to
   * itself included): receiver's handling time less the sender's actor time, in wall ms.
   */
  readonly felt?: Record<string, LatencyState>;
  /** The same by message type, then link: `felt_by_type[type][from->to]`. */
  readonly felt_by_type?: Record<string, Record<string, LatencyState>>;
  /** A felt delay from another process in its two parts, and timers' lateness before their mailbox (MailboxSplit). */
  readonly mailbox?: MailboxSplit;
  /**
   * When this process was cut off from the bus while the run's clock ran (a nats-server restart),
   * emulated seconds, from its disconnection to its reconnection: absent when it never was.
   */
  readonly outages?: readonly { readonly from_s: number; readonly to_s: number }[];
  /** The throwaway grid it ran before the clock started (shared/live/src/warm-up.ts): jobs, how many finished, wall ms. */
  readonly warm_up?: { readonly jobs: number; readonly finished: number; readonly wall_ms: number };
}

/**
 * A process restarted after a crash that has caught up: its journal replayed and its clock on the
 * run's again. `down_from_s` is when it died (when it was killed, if known, else its last stored
 * delivery); `rejoined_s` when it was back (its actors began to recover), in emulated seconds;
 * `catch_up_wall_ms` the wall time from when it was due back to then (a planned crash's due time: what its successor, standing by,
 * had left to do, or its start-up too if it was late), or from the start of the new process (a
 * restart nobody planned: start-up, joining and the replay).
 */
export interface Rejoin {
  readonly incarnation: number;
  readonly down_from_s: number;
  readonly rejoined_s: number;
  readonly catch_up_wall_ms: number;
  readonly replayed_entries: number;
}

/** What the orchestrator of `gridemu run` did to the run, which its victims cannot count themselves. */
export interface OrchestratorTally {
  /** Run counters: faults.crashes_applied, faults.nats_restarts, messages.dropped, messages.held_by_partition. */
  readonly counters: Record<string, number>;
  /** Processes that died unplanned and were started again (live.journal), by location. */
  readonly unplanned_restarts: Record<string, number>;
}

/** A mergeable latency summary: exact count, sum, min and max; log-spaced buckets for percentiles. */
/**
 * A felt delay between processes in two parts, by message type then link `from->to`, wall ms:
 * until the message reached the receiver's mailbox (`arrived_by_type`), and its wait there until
 * handled (`waited_by_type`); and how late timers reached their mailbox (`timer_fire_lag`). A
 * timer is handled after what reached the mailbox before it, so a time-out races an answer's
 * arrival, not its handling.
 */
export interface MailboxSplit {
  readonly arrived_by_type: Record<string, Record<string, LatencyState>>;
  readonly waited_by_type: Record<string, Record<string, LatencyState>>;
  readonly timer_fire_lag: LatencyState;
  /**
   * The arrivals again per link, then per window of the run: `links[from->to][w]` for the messages
   * sent from `w × bin_s` emulated seconds for `bin_s` (absent in older files: no timeline).
   */
  readonly arrived_timeline?: MailboxTimeline;
  /** The waits again per link, then per window of the run by when each message reached the mailbox (absent in older files). */
  readonly waited_timeline?: MailboxTimeline;
  /** Timers' lateness before their mailbox again per location, then per window of when each was due (absent in older files). */
  readonly timer_fire_timeline?: TimerTimeline;
  /**
   * The felt delays of messages between two actors of one process, per location (`s1->s1`), then
   * per window of the run by when each was sent (absent in older files).
   */
  readonly local_timeline?: MailboxTimeline;
}

/** Timers' lateness per location (`s1`, `driver`), then per window of `bin_s` emulated seconds of the run. */
export interface TimerTimeline {
  readonly bin_s: number;
  readonly locations: Record<string, Record<string, LatencyState>>;
}

/** One part of a felt delay per link, then per window of `bin_s` emulated seconds of the run. */
export interface MailboxTimeline {
  readonly bin_s: number;
  readonly links: Record<string, Record<string, LatencyState>>;
  /**
   * By message type, then link, then window: how many of the type's messages the window holds
   * (absent in older files: a replay then scores every type against the link's windows alike).
   */
  readonly counts_by_type?: Record<string, Record<string, Record<string, number>>>;
}

export interface LatencyState {
  readonly count: number;
  readonly sum_ms: number;
  readonly min_ms: number;
  readonly max_ms: number;
  /** bucket index → count (see LatencyHistogram in @gridemu/runtime). */
  readonly buckets: Record<string, number>;
}

/** The sender token of `gridemu run`'s own process on the control plane. */
export const ORCHESTRATOR_SENDER = 'gridemu-orchestrator';

/** Kinds only the driver may publish (plan and tallied are replies, on request inboxes, never on a subject). */
const DRIVER_KINDS: ReadonlySet<ControlKind> = new Set([
  'start',
  'progress',
  'end',
  'abort',
  'welcomed',
  'tally',
  'plan',
]);

export function controlSubject(run: string, kind: ControlKind, sender: string): string {
  return `gridemu-ctl.${run}.${kind}.${sender}`;
}

/** Every sender's messages of one kind (what a receiver subscribes to). */
export function controlKindSubjects(run: string, kind: ControlKind): string {
  return `gridemu-ctl.${run}.${kind}.*`;
}

/** Every control subject `sender` may publish on (its NATS user's permission). */
export function controlSenderSubjects(run: string, sender: string): string {
  return `gridemu-ctl.${run}.*.${sender}`;
}

/** The sender a control subject names, or undefined if it names none. */
export function controlSenderOf(subject: string): string | undefined {
  const tokens = subject.split('.');
  return tokens.length === 4 && tokens[0] === 'gridemu-ctl' ? tokens[3] : undefined;
}

/**
 * Why `sender` may not send `msg`, or undefined if it may: the driver's kinds come from the
 * driver only; a member's kinds name their sender as `member` (a dead member's `failed` may also
 * come from the orchestrator, which saw it die); replies never come on a subject.
 */
export function controlSenderProblem(msg: ControlMessage, sender: string): string | undefined {
  if (msg.kind === 'tallied') return 'a tallied is a reply, never published on a subject';
  if (DRIVER_KINDS.has(msg.kind))
    return sender === 'driver' ? undefined : `only the driver sends ${msg.kind}, not "${sender}"`;
  const member = (msg as { member?: string }).member;
  if (member === sender) return undefined;
  if (msg.kind === 'failed' && sender === ORCHESTRATOR_SENDER) return undefined;
  return `"${sender}" sent a ${msg.kind} naming "${member}"`;
}

/** Every control subject of a run (for permissions and taps). */
export function controlWildcard(run: string): string {
  return `gridemu-ctl.${run}.>`;
}

/**
 * Where `user`'s requests in `run` get their replies (`plan`, `tallied`): its connection's inbox
 * prefix. Each user may subscribe to its own inboxes only, and only the one process that answers a
 * request may publish into the requester's, so no process can watch or answer first another's.
 */
export function requestInboxPrefix(run: string, user: string): string {
  return `_INBOX.${run}.${user}`;
}

/**
 * The largest control message, in bytes. A plan carries the whole spec, and a process's report at
 * the end of a run its histograms and timelines per link: a GRUBER engine's on a 15-site grid was
 * over the 1 MB that were the limit (and over what NATS takes in one message: such a message goes
 * in parts, shared/live/src/control-parts.ts). Bounded still, so a malformed one cannot take the
 * receiver's memory.
 */
export const MAX_CONTROL_BYTES = 64 * 1024 * 1024;

export function encodeControl(run: string, msg: ControlMessage): Uint8Array {
  return encode({ v: PROTOCOL_VERSION, run, ...msg }, { ignoreUndefined: true });
}

export type DecodedControl =
  { readonly ok: true; readonly msg: ControlMessage } | { readonly ok: false; readonly reason: string };

type FieldRule = 'string' | 'number' | 'record' | 'strings';
const CONTROL_SHAPES: Record<ControlKind, Record<string, FieldRule>> = {
  hello: { member: 'string' },
  plan: { experiment: 'record' },
  ready: { member: 'string', pid: 'number', http: 'string' },
  serving: { member: 'string', http: 'string' },
  start: { epoch_s: 'number', wallEpoch_ms: 'number', speedup: 'number' },
  heartbeat: { member: 'string', rss_mb: 'number' },
  failed: { member: 'string', error: 'string' },
  progress: { finished: 'number', total: 'number', now_s: 'number', wall_s: 'number' },
  end: {},
  abort: { reason: 'string' },
  report: { member: 'string', report: 'record' },
  rejoined: { member: 'string', rejoin: 'record' },
  welcomed: { member: 'string', incarnation: 'number' },
  tally: {},
  tallied: { tally: 'record' },
};

/** Decodes a control message of `run`; never throws (a bad one is counted and dropped by the caller). */
export function decodeControl(bytes: Uint8Array, run: string): DecodedControl {
  if (bytes.byteLength > MAX_CONTROL_BYTES)
    return { ok: false, reason: `control payload of ${bytes.byteLength} bytes is too large` };
  let raw: unknown;
  try {
    raw = decode(bytes, { maxExtLength: 0 });
  } catch (err) {
    return { ok: false, reason: `not msgpack: ${(err as Error).message.slice(0, 120)}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, reason: 'control message is not a map' };
  const m = raw as Record<string, unknown>;
  if (m['v'] !== PROTOCOL_VERSION)
    return {
      ok: false,
      reason: `protocol version ${JSON.stringify(m['v'])?.slice(0, 20)} (this process speaks ${PROTOCOL_VERSION})`,
    };
  if (m['run'] !== run) return { ok: false, reason: 'control message of another run' };
  const kind = m['kind'];
  if (typeof kind !== 'string' || !Object.hasOwn(CONTROL_SHAPES, kind))
    return { ok: false, reason: `unknown control kind ${JSON.stringify(kind)?.slice(0, 40)}` };
  for (const [field, rule] of Object.entries(CONTROL_SHAPES[kind as ControlKind])) {
    const v = m[field];
    const fine =
      rule === 'string'
        ? typeof v === 'string'
        : rule === 'number'
          ? typeof v === 'number' && Number.isFinite(v)
          : rule === 'strings'
            ? Array.isArray(v) && v.every((x) => typeof x === 'string')
            : typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!fine) return { ok: false, reason: `${kind}.${field} must be a ${rule}` };
  }
  const { v: _v, run: _run, ...msg } = m;
  if (kind === 'plan' && m['resume'] !== undefined) {
    const r = m['resume'] as Record<string, unknown> | null;
    const bad =
      typeof r !== 'object' ||
      r === null ||
      (['epoch_s', 'wallEpoch_ms', 'speedup'] as const).some((f) => typeof r[f] !== 'number' || !Number.isFinite(r[f]));
    if (bad) return { ok: false, reason: 'plan.resume must hold numbers epoch_s, wallEpoch_ms and speedup' };
  }
  if (kind === 'rejoined') {
    const r = m['rejoin'] as Record<string, unknown>;
    if (
      !isCountMap(r) ||
      (['incarnation', 'down_from_s', 'rejoined_s', 'catch_up_wall_ms', 'replayed_entries'] as const).some(
        (f) => typeof r[f] !== 'number',
      )
    )
      return {
        ok: false,
        reason:
          'rejoined.rejoin must hold numbers incarnation, down_from_s, rejoined_s, catch_up_wall_ms and replayed_entries',
      };
  }
  if (kind === 'tallied') {
    const t = m['tally'] as Record<string, unknown>;
    if (!isCountMap(t['counters']) || !isCountMap(t['unplanned_restarts']))
      return { ok: false, reason: 'tallied.tally must map counters and unplanned_restarts to numbers' };
  }
  if (kind === 'report') {
    const problem = reportProblem(m['report'] as Record<string, unknown>);
    if (problem) return { ok: false, reason: `report.${problem}` };
  }
  return { ok: true, msg: msg as unknown as ControlMessage };
}

/** A map of message type → link → latency summary, or undefined. */
function byTypeProblem(byType: unknown, field: string): string | undefined {
  if (byType === undefined) return undefined;
  if (typeof byType !== 'object' || byType === null) return `${field} must be a map`;
  for (const [type, links] of Object.entries(byType)) {
    if (typeof links !== 'object' || links === null) return `${field}.${type} must be a map`;
    for (const [link, s] of Object.entries(links as object))
      if (!isLatencyState(s)) return `${field}.${type}.${link} is malformed`;
  }
  return undefined;
}

function reportProblem(r: Record<string, unknown>): string | undefined {
  for (const f of ['pid', 'rss_mb', 'peak_rss_mb', 'cpu_s'] as const)
    if (typeof r[f] !== 'number') return `${f} must be a number`;
  if (r['run_cpu_s'] !== undefined && typeof r['run_cpu_s'] !== 'number') return 'run_cpu_s must be a number';
  const messages = r['messages'] as Record<string, unknown> | undefined;
  if (!isCountMap(messages?.['all']) || !isCountMap(messages?.['cross_site']))
    return 'messages must map types to counts';
  if (messages?.['per_hour'] !== undefined && !isCountMap(messages['per_hour']))
    return 'messages.per_hour must map hours to counts';
  if (!isCountMap(r['counters'])) return 'counters must map names to numbers';
  const latency = r['latency'];
  if (typeof latency !== 'object' || latency === null) return 'latency must be a map';
  for (const [link, s] of Object.entries(latency)) if (!isLatencyState(s)) return `latency.${link} is malformed`;
  if (!isLatencyState(r['timer_lag'])) return 'timer_lag is malformed';
  const felt = r['felt'];
  if (felt !== undefined && (typeof felt !== 'object' || felt === null)) return 'felt must be a map';
  for (const [link, s] of Object.entries(felt ?? {})) if (!isLatencyState(s)) return `felt.${link} is malformed`;
  const outages = r['outages'];
  if (outages !== undefined) {
    if (!Array.isArray(outages)) return 'outages must be a list of { from_s, to_s }';
    for (const o of outages as unknown[]) {
      const x = o as Record<string, unknown> | null;
      if (
        typeof x !== 'object' ||
        x === null ||
        typeof x['from_s'] !== 'number' ||
        typeof x['to_s'] !== 'number' ||
        !(x['to_s'] >= x['from_s'])
      )
        return 'outages must be a list of { from_s, to_s } with to_s no earlier than from_s';
    }
  }
  const byType = byTypeProblem(r['felt_by_type'], 'felt_by_type');
  if (byType) return byType;
  const mailbox = r['mailbox'] as Record<string, unknown> | undefined;
  if (mailbox !== undefined) {
    if (typeof mailbox !== 'object' || mailbox === null) return 'mailbox must be an object';
    for (const f of ['arrived_by_type', 'waited_by_type'] as const) {
      if (mailbox[f] === undefined) return `mailbox.${f} is missing`;
      const problem = byTypeProblem(mailbox[f], `mailbox.${f}`);
      if (problem) return problem;
    }
    if (!isLatencyState(mailbox['timer_fire_lag'])) return 'mailbox.timer_fire_lag is malformed';
    for (const f of ['arrived_timeline', 'waited_timeline', 'local_timeline'] as const) {
      const timeline = mailbox[f] as Record<string, unknown> | undefined;
      if (timeline === undefined) continue;
      if (
        typeof timeline !== 'object' ||
        timeline === null ||
        !(typeof timeline['bin_s'] === 'number' && timeline['bin_s'] > 0)
      )
        return `mailbox.${f} must have a positive bin_s`;
      const problem = byTypeProblem(timeline['links'] ?? {}, `mailbox.${f}.links`);
      if (problem) return problem;
      const counts = timeline['counts_by_type'];
      if (counts !== undefined && !isNestedCountMap(counts))
        return `mailbox.${f}.counts_by_type must map message type → link → window → count`;
    }
    const timers = mailbox['timer_fire_timeline'] as Record<string, unknown> | undefined;
    if (timers !== undefined) {
      if (
        typeof timers !== 'object' ||
        timers === null ||
        !(typeof timers['bin_s'] === 'number' && timers['bin_s'] > 0)
      )
        return 'mailbox.timer_fire_timeline must have a positive bin_s';
      const problem = byTypeProblem(timers['locations'] ?? {}, 'mailbox.timer_fire_timeline.locations');
      if (problem) return problem;
    }
  }
  const warm = r['warm_up'] as Record<string, unknown> | undefined;
  if (warm !== undefined && !isCountMap(warm)) return 'warm_up must map jobs, finished and wall_ms to numbers';
  return undefined;
}

function isCountMap(v: unknown): v is Record<string, number> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((x) => typeof x === 'number' && Number.isFinite(x))
  );
}

/** Message type → link → window → count. */
function isNestedCountMap(v: unknown): boolean {
  const isMap = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  return isMap(v) && Object.values(v).every((links) => isMap(links) && Object.values(links).every(isCountMap));
}

function isLatencyState(v: unknown): v is LatencyState {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return ['count', 'sum_ms', 'min_ms', 'max_ms'].every((f) => typeof s[f] === 'number') && isCountMap(s['buckets']);
}
