import type { PartitionFault } from '@gridemu/model';

/** A process that dies and comes back: its location is down from `at_s` for `down_s`. */
export interface LocationCrash {
  readonly location: string;
  readonly at_s: number;
  readonly down_s: number;
}

/** These locations are cut off from every other location from `from_s` to `to_s`. */
export interface LocationPartition {
  readonly locations: readonly string[];
  readonly from_s: number;
  readonly to_s: number;
}

/** The spec's partitions (`faults.partition`, which name sites) as cuts between locations. */
export function locationPartitions(partitions: readonly PartitionFault[]): LocationPartition[] {
  return partitions.map((p) => ({ locations: p.sites, from_s: p.from_s, to_s: p.to_s }));
}

/** What a fault does at its time: a location goes down or comes back, a cut opens or heals. */
export type FaultEvent =
  | { readonly time_s: number; readonly kind: 'crash'; readonly location: string; readonly until_s: number }
  | { readonly time_s: number; readonly kind: 'restart'; readonly location: string; readonly crashed_s: number }
  | { readonly time_s: number; readonly kind: 'cut'; readonly partition: LocationPartition }
  | { readonly time_s: number; readonly kind: 'heal'; readonly partition: LocationPartition };

/** The faults' events in time order; at one time, heals and restarts come before new cuts and crashes. */
export function faultEvents(crashes: readonly LocationCrash[], partitions: readonly LocationPartition[]): FaultEvent[] {
  const events: FaultEvent[] = [];
  for (const c of crashes) {
    events.push({ time_s: c.at_s, kind: 'crash', location: c.location, until_s: c.at_s + c.down_s });
    events.push({ time_s: c.at_s + c.down_s, kind: 'restart', location: c.location, crashed_s: c.at_s });
  }
  for (const p of partitions) {
    events.push({ time_s: p.from_s, kind: 'cut', partition: p });
    events.push({ time_s: p.to_s, kind: 'heal', partition: p });
  }
  const rank = { restart: 0, heal: 1, cut: 2, crash: 3 } as const;
  return events.sort((a, b) => a.time_s - b.time_s || rank[a.kind] - rank[b.kind]);
}

/**
 * The cuts in force: whether two locations are on different sides of one, and when the last cut
 * between them heals. A run-wide actor (location undefined: the driver) is never cut off.
 */
export class Cuts {
  private readonly open: LocationPartition[] = [];

  get active(): boolean {
    return this.open.length > 0;
  }

  cut(p: LocationPartition): void {
    this.open.push(p);
  }

  heal(p: LocationPartition): void {
    const i = this.open.indexOf(p);
    if (i >= 0) this.open.splice(i, 1);
  }

  /** When traffic from `a` to `b` may flow again; undefined when it flows now. */
  heldUntil(a: string | undefined, b: string | undefined): number | undefined {
    return healOf(this.open, a, b);
  }
}

/**
 * When the last of `partitions` that lies between `a` and `b` heals; undefined if none does. A
 * destination that is no location (`topic`: everyone) is cut off from a sender that is cut off.
 */
export function healOf(
  partitions: Iterable<LocationPartition>,
  a: string | undefined,
  b: string | undefined,
): number | undefined {
  if (a === undefined || b === undefined || a === b) return undefined;
  let until: number | undefined;
  for (const p of partitions) {
    if (p.locations.includes(a) !== p.locations.includes(b)) until = Math.max(until ?? 0, p.to_s);
  }
  return until;
}

/** The partitions in force at `now_s`. */
export function partitionsAt(partitions: readonly LocationPartition[], now_s: number): LocationPartition[] {
  return partitions.filter((p) => p.from_s <= now_s && now_s < p.to_s);
}
