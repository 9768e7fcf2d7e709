/**
 * An actor that runs jobs on a site's processors and can say which runs are confirmed: those that
 * count as the job's run, not an optimistic copy still waiting for its verdict. The fuzzer checks
 * through it that no job runs for good at two sites at once, whatever family the actor belongs to.
 */
export interface ConfirmedRuns {
  readonly siteId: string;
  confirmedRuns(): Iterable<string>;
}

export function hasConfirmedRuns(actor: unknown): actor is ConfirmedRuns {
  const candidate = actor as Partial<ConfirmedRuns> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.siteId === 'string' &&
    typeof candidate.confirmedRuns === 'function'
  );
}
