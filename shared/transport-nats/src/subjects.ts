import type { Address } from '@gridemu/protocol';
import type { BusTarget } from '@gridemu/runtime';

/**
 * NATS subjects: `gridemu.<run>.<address with / as .>` for an actor, so `s1/scheduler` listens on
 * `gridemu.<run>.s1.scheduler`, and `gridemu.<run>.topic.<name>` for a topic (the site id `topic`
 * is reserved). Run ids and site ids are single subject tokens, so one run never hears another.
 */
export function actorSubject(run: string, address: Address): string {
  return `gridemu.${run}.${address.replace(/\//g, '.')}`;
}

export function topicSubject(run: string, topic: string): string {
  return `gridemu.${run}.topic.${topic}`;
}

export function subjectOf(run: string, target: BusTarget): string {
  return 'actor' in target ? actorSubject(run, target.actor) : topicSubject(run, target.topic);
}

/** Every subject of a run (for tests and taps). */
export function runWildcard(run: string): string {
  return `gridemu.${run}.>`;
}
