import { existsSync, readFileSync } from 'node:fs';

/**
 * The processes of run `run` whose connections nats-server closed as slow consumers, and how many
 * times each, from the server's log. A client that does not read what it is sent within the
 * server's write deadline (on an overloaded machine, at a speed-up past what it keeps up with) is
 * cut off, what was on its way to it dropped; it reconnects, and only the server's log says so:
 *
 *   [INF] 127.0.0.1:39502 - cid:4 - "v3.0.0:nats.js:gridemu-RUN-s3" - Slow Consumer Detected: ...
 *
 * Each process of a run names its connection `gridemu-RUN-NAME` (a site id, `driver`,
 * `orchestrator`, `proxy-s3`), so another run's lines in the same log are not counted.
 */
export function slowConsumersOf(logText: string, run: string): Map<string, number> {
  const counts = new Map<string, number>();
  const prefix = `gridemu-${run}-`;
  for (const line of logText.split('\n')) {
    if (!line.includes('Slow Consumer Detected')) continue;
    const client = /"[^"]*:([^":]+)" - Slow Consumer Detected/.exec(line)?.[1];
    if (client === undefined || !client.startsWith(prefix)) continue;
    const name = client.slice(prefix.length);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/**
 * What to tell the user when the server that `gridemu run` started cut off some of the run's
 * processes as slow consumers (its log at `logFile`), or undefined when it cut off none (or there
 * is no such log: a run on a server given with --nats).
 */
export function slowConsumerNote(logFile: string, run: string, journaled: boolean): string | undefined {
  if (!existsSync(logFile)) return undefined;
  const counts = slowConsumersOf(readFileSync(logFile, 'utf8'), run);
  if (counts.size === 0) return undefined;
  const who = [...counts].map(([name, n]) => `${name}${n === 1 ? '' : ` (${n} times)`}`).join(', ');
  return (
    `nats-server closed the connection of ${who} as too slow to take what it was sent ("Slow Consumer Detected" in ${logFile}): ` +
    (journaled
      ? 'what was on its way then was sent again (live.journal), late'
      : 'what was on its way then was lost, with any job it carried (live.journal: true resends it)') +
    '; the machine did not keep up with this speed-up: heed the fidelity warnings, or lower it'
  );
}
