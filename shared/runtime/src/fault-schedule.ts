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

/**
 * The message bus is down from `from_s` to `to_s` (a nats-server restart): every message between
 * two different locations, the driver's included, is held until it is back.
 */
export interface BusOutage {
  readonly from_s: number;
  readonly to_s: number;
}

/**
 * Whether a message sent at `sent_s` and handled at `handled_s` was on its way at some moment of
 * `span` (from `from_s`, before `to_s`): what a fault over that span held, or may have held.
 */
export function onItsWayDuring(
  span: { readonly from_s: number; readonly to_s: number },
  sent_s: number,
  handled_s: number,
): boolean {
  return span.from_s <= handled_s && sent_s < span.to_s;
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
  | { readonly time_s: number; readonly kind: 'heal'; readonly partition: LocationPartition }
  | { readonly time_s: number; readonly kind: 'outage'; readonly outage: BusOutage }
  | { readonly time_s: number; readonly kind: 'restored'; readonly outage: BusOutage };

/** The faults' events in time order; at one time, heals and restarts come before new cuts and crashes. */
export function faultEvents(
  crashes: readonly LocationCrash[],
  partitions: readonly LocationPartition[],
  outages: readonly BusOutage[] = [],
): FaultEvent[] {
  const events: FaultEvent[] = [];
  for (const c of crashes) {
    events.push({ time_s: c.at_s, kind: 'crash', location: c.location, until_s: c.at_s + c.down_s });
    events.push({ time_s: c.at_s + c.down_s, kind: 'restart', location: c.location, crashed_s: c.at_s });
  }
  for (const p of partitions) {
    events.push({ time_s: p.from_s, kind: 'cut', partition: p });
    events.push({ time_s: p.to_s, kind: 'heal', partition: p });
  }
  for (const o of outages) {
    events.push({ time_s: o.from_s, kind: 'outage', outage: o });
    events.push({ time_s: o.to_s, kind: 'restored', outage: o });
  }
  const rank = { restart: 0, heal: 1, restored: 2, cut: 3, outage: 4, crash: 5 } as const;
  return events.sort((a, b) => a.time_s - b.time_s || rank[a.kind] - rank[b.kind]);
}

/**
 * The cuts in force: whether two locations are on different sides of one, and when the last cut
 * between them heals. A run-wide actor (location undefined: the driver) is never cut off by a
 * partition, only by an outage of the bus, which cuts every location off from every other.
 */
export class Cuts {
  private readonly open: LocationPartition[] = [];
  private readonly outages: BusOutage[] = [];

  get active(): boolean {
    return this.open.length > 0 || this.outages.length > 0;
  }

  /** Whether the bus is down now (an outage in force). */
  get busDown(): boolean {
    return this.outages.length > 0;
  }

  down(o: BusOutage): void {
    this.outages.push(o);
  }

  restored(o: BusOutage): void {
    const i = this.outages.indexOf(o);
    if (i >= 0) this.outages.splice(i, 1);
  }

  cut(p: LocationPartition): void {
    this.open.push(p);
  }

  heal(p: LocationPartition): void {
    const i = this.open.indexOf(p);
    if (i >= 0) this.open.splice(i, 1);
  }

  /**
   * When a cut in force now between `a` and `b` heals (`b` = `topic`: any cut `a` is behind);
   * undefined if none lies between them. A message's partition is decided as it leaves.
   */
  partitionHeal(a: string | undefined, b: string | undefined): number | undefined {
    return this.open.length === 0 ? undefined : healOf(this.open, a, b);
  }

  /**
   * When a message arriving now from `a` at `b` may be handled; undefined when it may be now. The
   * bus down holds every message between two locations; a partition holds here only a topic
   * message (`topic`), which the receiving location's proxy holds live as the server hands it on.
   */
  heldOnArrival(a: string | undefined, b: string | undefined, topic: boolean): number | undefined {
    const healed = topic ? healOf(this.open, a, b) : undefined;
    if (a === b || this.outages.length === 0) return healed;
    return Math.max(healed ?? 0, ...this.outages.map((o) => o.to_s));
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
