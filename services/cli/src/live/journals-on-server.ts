import type { NatsConnection } from '@nats-io/transport-node';
import { removeRunJournals, runJournalStreams } from '@gridemu/transport-nats';

/**
 * What becomes of a run's JetStream journals on a server the run did not start (`--nats`): our
 * own server's store is in DIR/nats/jetstream and goes with the results, but one that outlives
 * its runs would keep every run's streams and fill its JetStream store run after run. A run that
 * ended has no more use for them (a journal is how a restarted process rejoins the run), so they
 * are deleted; those of a run that failed or was stopped stay for a look at what they stored, and
 * are named.
 */
export async function settleRunJournals(
  nc: NatsConnection,
  run: string,
  url: string,
  ended: boolean,
  say: (line: string) => void,
): Promise<void> {
  try {
    if (ended) {
      const removed = await removeRunJournals(nc, run);
      if (removed.length > 0)
        say(`removed the run's ${removed.length} journal stream(s) from ${url}: the run has ended, nothing reads them`);
      return;
    }
    const kept = await runJournalStreams(nc, run);
    if (kept.length > 0)
      say(
        `the run's journals stay on ${url} for a look at what they stored: stream(s) ${kept.join(', ')} (nats stream rm NAME removes one)`,
      );
  } catch (err) {
    say(`could not ${ended ? 'remove' : 'list'} the run's journal streams on ${url}: ${(err as Error).message}`);
  }
}
