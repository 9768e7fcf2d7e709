import type { OutageSpan } from '@gridemu/runtime/live';

/**
 * What to add to a run's abort for a stall or a silent process when the driver lost its connection
 * to NATS during the run (then a process may be silent only to the driver). A run
 * without `live.journal` has no resends: what was on its way across such a gap is gone, and its
 * jobs with it. On an overloaded machine nats-server closes the connection of a client too slow
 * to take what it is sent ("Slow Consumer Detected" in its log), as a gruber-grid3 run at 20,000x
 * on 2 cores showed: 66,685 jobs never had an outcome, and the stall watch called it a lost job.
 */
export function lostConnectionNote(driverOutages: readonly OutageSpan[], journaled: boolean): string {
  if (driverOutages.length === 0 || journaled) return '';
  const first = driverOutages[0]!;
  const times = driverOutages.length === 1 ? 'once' : `${driverOutages.length} times`;
  return (
    `. The driver lost its connection to NATS ${times} (first at emulated ${Math.round(first.from_s)} s), ` +
    'and without live.journal what was on its way then is lost: a restart of the server, or the server closing ' +
    'the connection of a client too slow to keep up ("Slow Consumer" in its log, nats/nats-server.log in the ' +
    'output folder when gridemu run started it; heed the fidelity warnings, lower the speed-up, or set live.journal: true)'
  );
}
