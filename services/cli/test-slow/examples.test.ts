// Slow tests (npm run test:slow): every example a user is pointed at simulates and checks, at its
// full size (examples/gruber-grid3.yaml's 133,452 jobs once overflowed the call stack before the
// run began, and no test ran it).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needTraces } from '@gridemu/testkit';
import { gridemu, tmp } from '../test/cli-helpers.js';
import { REPO } from '../test/live-helpers.js';

const EXAMPLES = join(REPO, 'examples');

/** The archive logs an example reads (`swf:`), and the workflow instances (`wfformat:`). */
function inputsOf(text: string): { logs: string[]; workflows: string[] } {
  const named = (key: string) => [
    ...new Set([...text.matchAll(new RegExp(`\\b${key}: ([^,}\\s]+)`, 'g'))].map((m) => m[1]!)),
  ];
  return { logs: named('swf'), workflows: named('wfformat') };
}

describe('every example', () => {
  for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'))) {
    const { logs, workflows } = inputsOf(readFileSync(join(EXAMPLES, file), 'utf8'));
    const traces = needTraces(...logs);
    // A WfCommons instance is not an archive log: neither ../shared nor `gridemu trace fetch` has one,
    // so where it is absent the example must say where to put it, and exit 2.
    const absentWorkflows = workflows.filter((w) => needTraces(w).missing.length > 0);
    const title =
      absentWorkflows.length > 0
        ? `${file} says its workflow instance (${absentWorkflows.join(', ')}) is not found, and exits 2`
        : `${file} simulates, and gridemu check passes on what it wrote`;
    it.skipIf(traces.skip)(traces.title(title), () => {
      const out = join(tmp(), 'run');
      const run = gridemu(['simulate', join('examples', file), '--out', out, '--quiet']);
      if (absentWorkflows.length > 0) {
        expect(run.err).toContain(`"${absentWorkflows[0]}" not found`);
        expect(run.code).toBe(2);
        return;
      }
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      const check = gridemu(['check', out]);
      expect(check.out).toContain('ok      no job lost');
      expect(check.code).toBe(0);
    });
  }
});
