/** Where one source's submissions fall: summary.json's workload entry, or a SourceReport. */
export interface SourceWindow {
  readonly name: string;
  readonly first_submit_s: number;
  readonly last_submit_s: number;
}

/** A pause this short between sources is taken as meant, whatever came before it. */
const SHORTEST_PAUSE_S = 3600;

/**
 * A warning when the workload's sources do not share their time: no job is submitted for longer
 * than all the submissions before the pause took, the sources before it ending before those after
 * it begin. A source keeps its trace's submit times, so a slice taken with `skip`, or logs of
 * different machines, can start days after another source's last job: the sites are loaded one
 * group after the other, two experiments in a row whose utilization counts the pause. A pause
 * shorter than what came before it (a trace cut into consecutive slices), or than an hour (bursts
 * a few minutes apart), is taken as meant. Undefined when there is no such pause.
 */
export function sourcesApartInTime(sources: readonly SourceWindow[]): string | undefined {
  const ordered = [...sources].sort((a, b) => a.first_submit_s - b.first_submit_s);
  const start = ordered[0]?.first_submit_s ?? 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [i, s] of ordered.entries()) {
    const pause = s.first_submit_s - end;
    if (i > 0 && pause > end - start && pause > SHORTEST_PAUSE_S) {
      const before = ordered.slice(0, i).map((o) => o.name);
      const after = ordered.slice(i).map((o) => o.name);
      return (
        `the workload's sources are apart in time: no job is submitted from ${end} s to ${s.first_submit_s} s ` +
        `(${days(s.first_submit_s - end)}), longer than the submissions before it took (${days(end - start)}), ` +
        `so ${list(after)} submit${after.length === 1 ? 's' : ''} only once ${list(before)} ha${before.length === 1 ? 's' : 've'} stopped. A source keeps its trace's submit ` +
        `times (skip does not move a slice to 0): adding ${hours(s.first_submit_s - start)} to shift_h on ${list(before)} ` +
        `starts ${before.length === 1 ? 'it' : 'them'} with ${s.name} (the run's clock starts at the first submission)`
      );
    }
    end = Math.max(end, s.last_submit_s);
  }
  return undefined;
}

function days(seconds: number): string {
  return seconds >= 2 * 86_400 ? `${(seconds / 86_400).toFixed(1)} days` : `${(seconds / 3600).toFixed(1)} h`;
}

function hours(seconds: number): string {
  return String(Math.round((seconds / 3600) * 10) / 10);
}

function list(names: readonly string[]): string {
  return names.length <= 4 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}
