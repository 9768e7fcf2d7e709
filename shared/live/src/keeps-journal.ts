import type { ExperimentSpec } from '@gridemu/model';

/** Whether `member` keeps a journal: every process does with live.journal, else those faults.crash names. */
export function keepsJournal(spec: ExperimentSpec, member: string): boolean {
  return spec.live.journal === true || spec.faults.crash.some((c) => c.process === member);
}
