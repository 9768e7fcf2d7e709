import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWfFormat } from '../src/index.js';
import { tempDir } from './helpers.js';

/** A three-task diamond's top half: split → two workers. */
function instance(version = '1.6') {
  return {
    name: 'tiny',
    schemaVersion: version,
    workflow: {
      specification: {
        tasks: [
          { name: 'split', id: 'T1', parents: [], children: ['T2', 'T3'], inputFiles: ['in'], outputFiles: ['a', 'b'] },
          { name: 'work', id: 'T2', parents: ['T1'], children: [], inputFiles: ['a'], outputFiles: [] },
          { name: 'work', id: 'T3', parents: ['T1'], children: [], inputFiles: ['b', 'ref'] },
        ],
        files: [
          { id: 'in', sizeInBytes: 1000 },
          { id: 'a', sizeInBytes: 300 },
          { id: 'b', sizeInBytes: 200 },
          { id: 'ref', sizeInBytes: 50 },
        ],
      },
      execution: {
        makespanInSeconds: 20,
        executedAt: '2026-01-01T00:00:00Z',
        tasks: [
          { id: 'T1', runtimeInSeconds: 5 },
          { id: 'T2', runtimeInSeconds: 12, coreCount: 1.5 },
        ],
      },
    },
  };
}

async function read(doc: unknown) {
  const file = join(tempDir(), 'w.json');
  writeFileSync(file, JSON.stringify(doc));
  return readWfFormat(file);
}

describe('the WfFormat reader', () => {
  it('reads the tasks, their edges, run times, cores and file bytes, from 1.5 and 1.6 instances alike', async () => {
    for (const v of ['1.5', '1.6']) {
      const w = await read(instance(v));
      expect(w.name).toBe('tiny');
      expect(
        w.tasks.map((t) => [t.id, t.parents, t.children, t.runtime_s, t.cores, t.input_bytes, t.output_bytes]),
      ).toEqual([
        ['T1', [], ['T2', 'T3'], 5, 1, 1000, 500],
        ['T2', ['T1'], [], 12, 2, 300, 0],
        ['T3', ['T1'], [], 0, 1, 250, 0],
      ]);
      // Each edge moves the files the child reads that the parent writes; the rest come from outside.
      expect(w.tasks.map((t) => [t.id, t.bytes_from_parents, t.external_input_bytes])).toEqual([
        ['T1', [], 1000],
        ['T2', [300], 0],
        ['T3', [200], 50],
      ]);
    }
  });

  it('rejects a cycle, a parent/child mismatch and an unknown file id, each with its JSON path', async () => {
    const cyclic = instance();
    cyclic.workflow.specification.tasks[0]!.parents = ['T2'];
    cyclic.workflow.specification.tasks[1]!.children = ['T1'];
    await expect(read(cyclic)).rejects.toThrow(
      /w\.json: workflow\.specification\.tasks\[0\]: the tasks form a cycle: T1 -> T2 -> T1/,
    );

    const mismatch = instance();
    mismatch.workflow.specification.tasks[2]!.parents = [];
    await expect(read(mismatch)).rejects.toThrow(
      /workflow\.specification\.tasks\[0\]\.children\[1\]: "T3" is a child of "T1", but tasks\[2\]\.parents does not list "T1"/,
    );

    const unknownFile = instance();
    unknownFile.workflow.specification.tasks[1]!.inputFiles = ['a', 'zz'];
    await expect(read(unknownFile)).rejects.toThrow(
      /workflow\.specification\.tasks\[1\]\.inputFiles\[1\]: no file "zz"/,
    );
  });

  it('names the path of what the schema refuses, and of a duplicate id or an execution entry for no task', async () => {
    const badVersion = { ...instance(), schemaVersion: '1.2' };
    await expect(read(badVersion)).rejects.toThrow(
      /w\.json: schemaVersion: must be equal to one of the allowed values/,
    );
    const negative = instance();
    (negative.workflow.specification.files[1] as { sizeInBytes: number }).sizeInBytes = -3;
    await expect(read(negative)).rejects.toThrow(/workflow\.specification\.files\[1\]\.sizeInBytes: must be >= 0/);
    const dup = instance();
    dup.workflow.specification.tasks[2]!.id = 'T2';
    await expect(read(dup)).rejects.toThrow(
      /workflow\.specification\.tasks\[2\]\.id: task id "T2" is used by tasks\[1\] too/,
    );
    const stray = instance();
    stray.workflow.execution.tasks.push({ id: 'T9', runtimeInSeconds: 1 });
    await expect(read(stray)).rejects.toThrow(/workflow\.execution\.tasks\[2\]\.id: no task "T9"/);
  });
});
