import { Rng } from '@gridemu/runtime';

/**
 * What a task moves over the links (paper 004 §4: GridSim charges input and output over the
 * bandwidth). LCG gives no sizes, so each is its mean × a uniform factor in [1 − spread, 1 + spread],
 * drawn from the seed and the task alone (the same for every router under test).
 */
export interface TaskDataSpec {
  /** Mean input, bytes: scheduler to resource, with the task. */
  readonly input_bytes: number;
  /** Mean output, bytes: resource back to the scheduler when the task ends. */
  readonly output_bytes: number;
  readonly spread: number;
}

export function taskData(spec: TaskDataSpec, jobId: string, seed: number): { input: number; output: number } {
  if (spec.spread === 0) return { input: spec.input_bytes, output: spec.output_bytes };
  const rng = new Rng(seed, `shadow/task-data/${jobId}`);
  const factor = () => 1 - spec.spread + 2 * spec.spread * rng.next();
  const input = spec.input_bytes * factor();
  return { input, output: spec.output_bytes * factor() };
}
