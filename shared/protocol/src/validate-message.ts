import { MessageType, type Message } from './messages.js';

/** A field's rule: its type, and whether it may be absent; or a module's own check, which says what is wrong or nothing. */
export type FieldRule =
  'string' | 'number' | 'count' | 'boolean' | 'job' | 'reason' | 'optional-boolean' | 'trail' | FieldCheck;
export type FieldCheck = (value: unknown) => string | undefined;

/** What one message type must carry, field by field (`type` aside). */
export type MessageShape = Readonly<Record<string, FieldRule>>;
export type MessageShapes = Readonly<Record<string, MessageShape>>;

/** The messages every family speaks: submissions, the results' reports, acknowledgements (messages.ts). */
export const CORE_MESSAGE_SHAPES: MessageShapes = {
  [MessageType.JobSubmit]: { job: 'job' },
  // Empty for a job that holds no fixed processors (a divisible task of paper 000: its jobs take what they get).
  [MessageType.JobStarted]: {
    jobId: 'string',
    site: 'string',
    time_s: 'number',
    resources: (v) =>
      typeof v === 'string' && v.length <= 1024 ? undefined : 'must be a string (at most 1024 characters)',
    trail: 'trail',
  },
  [MessageType.JobCompleted]: {
    jobId: 'string',
    site: 'string',
    time_s: 'number',
    trail: (v) => (v === undefined ? undefined : trailProblem(v)),
  },
  [MessageType.JobRejected]: { jobId: 'string', site: 'string', reason: 'reason' },
  [MessageType.JobLost]: { jobId: 'string', site: 'string', started_s: 'number', time_s: 'number' },
  [MessageType.JobFailed]: { jobId: 'string', time_s: 'number', reason: 'string', trail: 'trail' },
  [MessageType.SubmitDue]: {},
  [MessageType.JobEnds]: { jobId: 'string' },
  [MessageType.BusAck]: {
    upto: (v) => (v === undefined || isLinkNumber(v) ? undefined : 'must be a positive integer'),
    received: (v) =>
      v === undefined || (Array.isArray(v) && v.every(isLinkNumber))
        ? undefined
        : 'must be a list of positive integers',
    more: (v) => (v === undefined || v === true ? undefined : 'must be true or absent'),
    boot: 'string',
  },
};

/** A durable message's number on its link (Envelope.lseq). */
function isLinkNumber(v: unknown): boolean {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}

/** Says why a value is not a well-formed message of a catalogue; the codec drops what it refuses. */
export type MessageCheck = (value: unknown) => string | undefined;

const JOB_FIELDS: Record<string, FieldRule> = {
  id: 'string',
  workload: 'string',
  origin: 'string',
  submit_s: 'number',
  run_s: 'number',
  estimate_s: 'number',
  procs: 'count',
};
const JOB_OPTIONAL: Record<string, FieldRule> = {
  user: 'count',
  // A trace's group number, or a VO's named group.
  group: (v) => (typeof v === 'string' ? fieldProblem(v, 'string') : fieldProblem(v, 'count')),
  vo: 'string',
  memory_mb: 'number',
  disk_mb: 'number',
  rejectReason: 'string',
  // The DAG a task belongs to (jobs.csv's dag column).
  dag: 'string',
};

/** Fields a family gives its jobs beside the core's optional ones (a DAG task's parents), with their rules. */
export type JobFieldRules = Readonly<Record<string, FieldRule>>;

/** What the scheme modules add to the core catalogue. */
export interface CatalogueExtensions {
  readonly messages?: readonly MessageShapes[];
  readonly jobFields?: readonly JobFieldRules[];
}

/**
 * A validator for the core messages plus those the scheme modules add, and for jobs with the core's
 * fields plus those the modules add. A type or a job field two catalogues both define is a
 * programming error, refused at once.
 */
export function messageValidator(extensions: CatalogueExtensions = {}): MessageCheck {
  const shapes: Record<string, MessageShape> = { ...CORE_MESSAGE_SHAPES };
  for (const more of extensions.messages ?? []) {
    for (const [type, shape] of Object.entries(more)) {
      if (type in shapes) throw new Error(`assertion: message type "${type}" is defined twice`);
      shapes[type] = shape;
    }
  }
  const jobOptional: Record<string, FieldRule> = { ...JOB_OPTIONAL };
  for (const more of extensions.jobFields ?? []) {
    for (const [field, rule] of Object.entries(more)) {
      if (field in jobOptional || field in JOB_FIELDS)
        throw new Error(`assertion: job field "${field}" is defined twice`);
      jobOptional[field] = rule;
    }
  }
  // Each shape's fields as a list, made once: every message from the bus is checked.
  const compiled = new Map(Object.entries(shapes).map(([type, shape]) => [type, compileShape(shape)]));
  return (value) => problemIn(compiled, value, jobOptional);
}

interface CompiledShape {
  readonly fields: readonly (readonly [string, FieldRule])[];
  readonly shape: MessageShape;
}

function compileShape(shape: MessageShape): CompiledShape {
  return { fields: Object.entries(shape), shape };
}

const coreCheck = messageValidator();

/** Checks that `value` is a well-formed core message; returns why not, or undefined if it is. */
export function messageProblem(value: unknown): string | undefined {
  return coreCheck(value);
}

/** Narrows after messageProblem said nothing. */
export function isMessage(value: unknown): value is Message {
  return messageProblem(value) === undefined;
}

function problemIn(
  shapes: ReadonlyMap<string, CompiledShape>,
  value: unknown,
  jobOptional: Readonly<Record<string, FieldRule>>,
): string | undefined {
  if (!isRecord(value)) return 'message is not a map';
  const type = value['type'];
  if (typeof type !== 'string') return 'message has no string "type"';
  const compiled = shapes.get(type);
  if (!compiled) return `unknown message type "${type.slice(0, 60)}"`;
  const { fields, shape } = compiled;
  for (let i = 0; i < fields.length; i++) {
    const [field, rule] = fields[i]!;
    const problem = rule === 'job' ? jobProblem(value[field], jobOptional) : fieldProblem(value[field], rule);
    if (problem) return `${type}.${field} ${problem}`;
  }
  for (const key in value) {
    if (key !== 'type' && !Object.prototype.hasOwnProperty.call(shape, key))
      return `${type} has an unexpected field "${key.slice(0, 60)}"`;
  }
  return undefined;
}

/** Why `v` breaks `rule`, or nothing; a family's own checks may build on it. */
export function fieldProblem(v: unknown, rule: FieldRule): string | undefined {
  if (typeof rule === 'function') return rule(v);
  switch (rule) {
    case 'string':
      return typeof v === 'string' && v.length > 0 && v.length <= 1024
        ? undefined
        : 'must be a non-empty string (at most 1024 characters)';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : 'must be a finite number';
    case 'count':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? undefined : 'must be a non-negative integer';
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case 'optional-boolean':
      return v === undefined || typeof v === 'boolean' ? undefined : 'must be true or false when present';
    case 'reason':
      return v === 'processors_unknown' ||
        v === 'wider_than_site' ||
        v === 'wider_than_vo_limit' ||
        v === 'beyond_last_level' ||
        v === 'by_policy'
        ? undefined
        : 'must be a known reject reason';
    case 'job':
      return jobProblem(v, JOB_OPTIONAL);
    case 'trail':
      return trailProblem(v);
  }
}

const JOB_REQUIRED_LIST = Object.entries(JOB_FIELDS);

function jobProblem(v: unknown, optional: Readonly<Record<string, FieldRule>>): string | undefined {
  if (!isRecord(v)) return 'must be a job map';
  for (let i = 0; i < JOB_REQUIRED_LIST.length; i++) {
    const [field, rule] = JOB_REQUIRED_LIST[i]!;
    const p = fieldProblem(v[field], rule);
    if (p) return `.${field} ${p}`;
  }
  // Only the optional fields the job has: most have one or two of them.
  for (const key in v) {
    if (Object.prototype.hasOwnProperty.call(JOB_FIELDS, key)) continue;
    if (!Object.prototype.hasOwnProperty.call(optional, key)) return `has an unexpected field "${key.slice(0, 60)}"`;
    if (v[key] === undefined) continue;
    const p = fieldProblem(v[key], optional[key]!);
    if (p) return `.${key} ${p}`;
  }
  return undefined;
}

const TRAIL_FIELDS = ['copies', 'migrations', 'replans'] as const;

function trailProblem(v: unknown): string | undefined {
  if (!isRecord(v)) return 'must be a map of copies, migrations and replans';
  for (let i = 0; i < TRAIL_FIELDS.length; i++) {
    const field = TRAIL_FIELDS[i]!;
    const p = fieldProblem(v[field], 'count');
    if (p) return `.${field} ${p}`;
  }
  for (const key in v) {
    if (key !== 'copies' && key !== 'migrations' && key !== 'replans')
      return `has an unexpected field "${key.slice(0, 60)}"`;
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}
