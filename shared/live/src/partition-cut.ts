import type { PartitionFault } from '@gridemu/model';
import { DRIVER } from '@gridemu/protocol';
import { healOf, locationPartitions, onItsWayDuring } from '@gridemu/runtime';

/**
 * Whether a message from one location to another, sent at emulated `sent_s` and handled at
 * `handled_s`, was on its way while the spec's partitions cut that link: one end inside a cut-off
 * set, the other not (healOf, as the delay proxies and the simulator judge it), neither end the
 * driver, which sits next to every site and is never cut off. A live process counts such a
 * delivery as held by the fault rather than as its link's delay. Judged by the whole flight, not
 * the sending time alone: a handler late on its timer sends from the timer's due time, so what it
 * sends can reach the proxy after the cut began while its sending time is before it, and the
 * proxy holds it the whole partition (20,000 emulated s recorded as a link's delay, before
 * 2026-11-28). What is left out near the cut's ends is a few ordinary samples. Undefined without
 * partitions.
 */
export function partitionCut(
  partitions: readonly PartitionFault[],
): ((from: string, to: string, sent_s: number, handled_s: number) => boolean) | undefined {
  if (partitions.length === 0) return undefined;
  const cuts = locationPartitions(partitions);
  return (from, to, sent_s, handled_s) =>
    from !== DRIVER &&
    to !== DRIVER &&
    healOf(
      cuts.filter((p) => onItsWayDuring(p, sent_s, handled_s)),
      from,
      to,
    ) !== undefined;
}
