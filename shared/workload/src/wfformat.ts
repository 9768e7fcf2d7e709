import { readFile } from 'node:fs/promises';
import { JsonFormatError, parseJsonText } from './json-input.js';

/** One task of a workflow instance, as a DAG scheduler needs it. */
export interface WorkflowTask {
  readonly id: string;
  readonly parents: readonly string[];
  readonly children: readonly string[];
  /** Its run time in the instance's execution (0 when the instance has no execution section). */
  readonly runtime_s: number;
  readonly cores: number;
  /** Bytes it reads and writes, from its files' sizes. */
  readonly input_bytes: number;
  readonly output_bytes: number;
  /** Of its input bytes, those each parent writes (aligned with `parents`): what that edge moves. */
  readonly bytes_from_parents: readonly number[];
  /** Its input bytes no parent writes: the workflow's own inputs, from outside the grid. */
  readonly external_input_bytes: number;
}

export interface Workflow {
  readonly name: string;
  readonly schemaVersion: string;
  /** In the file's order. */
  readonly tasks: readonly WorkflowTask[];
}

/**
 * The parts of the WfCommons WfFormat schema (versions 1.5 and 1.6) this reader relies on. The
 * public schema allows more fields than these, and so does this one; what the schema cannot say
 * (ids unique, references declared, parents and children agreeing, no cycle) is checked after it.
 */
const SCHEMA = {
  type: 'object',
  required: ['name', 'schemaVersion', 'workflow'],
  properties: {
    name: { type: 'string', minLength: 1 },
    schemaVersion: { type: 'string', enum: ['1.5', '1.6'] },
    workflow: {
      type: 'object',
      required: ['specification'],
      properties: {
        specification: {
          type: 'object',
          required: ['tasks'],
          properties: {
            tasks: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['name', 'id', 'parents', 'children'],
                properties: {
                  name: { type: 'string' },
                  id: { type: 'string', pattern: '^[0-9a-zA-Z_.#:/-]+$' },
                  parents: { type: 'array', items: { type: 'string' } },
                  children: { type: 'array', items: { type: 'string' } },
                  inputFiles: { type: 'array', items: { type: 'string' } },
                  outputFiles: { type: 'array', items: { type: 'string' } },
                },
              },
            },
            files: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'sizeInBytes'],
                properties: { id: { type: 'string', minLength: 1 }, sizeInBytes: { type: 'integer', minimum: 0 } },
              },
            },
          },
        },
        execution: {
          type: 'object',
          required: ['tasks'],
          properties: {
            tasks: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'runtimeInSeconds'],
                properties: {
                  id: { type: 'string' },
                  runtimeInSeconds: { type: 'number', minimum: 0 },
                  coreCount: { type: 'number', minimum: 1 },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

interface RawTask {
  name: string;
  id: string;
  parents: string[];
  children: string[];
  inputFiles?: string[];
  outputFiles?: string[];
}
interface RawInstance {
  name: string;
  schemaVersion: string;
  workflow: {
    specification: { tasks: RawTask[]; files?: { id: string; sizeInBytes: number }[] };
    execution?: { tasks: { id: string; runtimeInSeconds: number; coreCount?: number }[] };
  };
}

/** Reads and checks a WfFormat instance; every problem names the file and its JSON path. */
export async function readWfFormat(file: string): Promise<Workflow> {
  return parseWfFormat(parseJsonText(await readFile(file, 'utf8'), file), file);
}

export async function parseWfFormat(doc: unknown, file: string): Promise<Workflow> {
  // Loaded when a workflow is read, so that `gridemu simulate` of a trace never pays for it.
  const { Ajv } = await import('ajv');
  const validate = new Ajv({ allErrors: false, strict: false }).compile(SCHEMA);
  if (!validate(doc)) {
    const e = validate.errors![0]!;
    throw new JsonFormatError(file, jsonPath(e.instancePath), e.message ?? 'does not match the WfFormat schema');
  }
  const inst = doc as unknown as RawInstance;
  const spec = inst.workflow.specification;
  const base = 'workflow.specification';
  const fail = (where: string, reason: string): never => {
    throw new JsonFormatError(file, where, reason);
  };
  const byId = new Map<string, number>();
  spec.tasks.forEach((t, i) => {
    if (byId.has(t.id)) fail(`${base}.tasks[${i}].id`, `task id "${t.id}" is used by tasks[${byId.get(t.id)}] too`);
    byId.set(t.id, i);
  });
  const files = new Map<string, number>();
  (spec.files ?? []).forEach((f, i) => {
    if (files.has(f.id)) fail(`${base}.files[${i}].id`, `file id "${f.id}" is declared twice`);
    files.set(f.id, f.sizeInBytes);
  });
  spec.tasks.forEach((t, i) => {
    const at = `${base}.tasks[${i}]`;
    t.parents.forEach((p, k) => {
      const j = byId.get(p);
      if (j === undefined) fail(`${at}.parents[${k}]`, `no task "${p}"`);
      if (p === t.id) fail(`${at}.parents[${k}]`, 'a task cannot depend on itself');
      if (!spec.tasks[j!]!.children.includes(t.id))
        fail(
          `${at}.parents[${k}]`,
          `"${p}" is a parent of "${t.id}", but tasks[${j}].children does not list "${t.id}"`,
        );
    });
    t.children.forEach((c, k) => {
      const j = byId.get(c);
      if (j === undefined) fail(`${at}.children[${k}]`, `no task "${c}"`);
      if (!spec.tasks[j!]!.parents.includes(t.id))
        fail(`${at}.children[${k}]`, `"${c}" is a child of "${t.id}", but tasks[${j}].parents does not list "${t.id}"`);
    });
    for (const key of ['inputFiles', 'outputFiles'] as const) {
      (t[key] ?? []).forEach((f, k) => {
        if (!files.has(f)) fail(`${at}.${key}[${k}]`, `no file "${f}" in ${base}.files`);
      });
    }
  });
  const cycle = findCycle(spec.tasks, byId);
  if (cycle) fail(`${base}.tasks[${byId.get(cycle[0]!)}]`, `the tasks form a cycle: ${cycle.join(' -> ')}`);
  const runs = new Map<string, { runtimeInSeconds: number; coreCount?: number }>();
  (inst.workflow.execution?.tasks ?? []).forEach((t, i) => {
    if (!byId.has(t.id)) fail(`workflow.execution.tasks[${i}].id`, `no task "${t.id}" in ${base}.tasks`);
    runs.set(t.id, t);
  });
  const bytes = (ids: readonly string[] | undefined) => (ids ?? []).reduce((a, f) => a + files.get(f)!, 0);
  const writes = new Map(spec.tasks.map((t) => [t.id, new Set(t.outputFiles ?? [])]));
  const fromParent = (t: RawTask, p: string) => bytes((t.inputFiles ?? []).filter((f) => writes.get(p)!.has(f)));
  const external = (t: RawTask) =>
    bytes((t.inputFiles ?? []).filter((f) => !t.parents.some((p) => writes.get(p)!.has(f))));
  return {
    name: inst.name,
    schemaVersion: inst.schemaVersion,
    tasks: spec.tasks.map((t) => ({
      id: t.id,
      parents: t.parents,
      children: t.children,
      runtime_s: runs.get(t.id)?.runtimeInSeconds ?? 0,
      cores: Math.max(1, Math.ceil(runs.get(t.id)?.coreCount ?? 1)),
      input_bytes: bytes(t.inputFiles),
      output_bytes: bytes(t.outputFiles),
      bytes_from_parents: t.parents.map((p) => fromParent(t, p)),
      external_input_bytes: external(t),
    })),
  };
}

/** "/workflow/specification/tasks/3/id" → "workflow.specification.tasks[3].id". */
function jsonPath(pointer: string): string {
  if (pointer === '') return '(top level)';
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`), '');
}

/** A cycle through the children edges, as a list of ids from a task back to itself, if there is one. */
function findCycle(tasks: readonly RawTask[], byId: ReadonlyMap<string, number>): string[] | undefined {
  const state = new Array<0 | 1 | 2>(tasks.length).fill(0); // 0 unseen, 1 on the stack, 2 done
  const path: string[] = [];
  const visit = (i: number): string[] | undefined => {
    state[i] = 1;
    path.push(tasks[i]!.id);
    for (const c of tasks[i]!.children) {
      const j = byId.get(c)!;
      if (state[j] === 1) return [...path.slice(path.indexOf(c)), c];
      if (state[j] === 0) {
        const found = visit(j);
        if (found) return found;
      }
    }
    path.pop();
    state[i] = 2;
    return undefined;
  };
  for (let i = 0; i < tasks.length; i++) {
    if (state[i] !== 0) continue;
    const found = visit(i);
    if (found) return found;
  }
  return undefined;
}
