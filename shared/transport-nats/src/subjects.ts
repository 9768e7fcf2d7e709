import type { Address } from '@gridemu/protocol';
import { senderOf, type BusTarget } from '@gridemu/runtime';

/**
 * NATS subjects name the receiver and then the sender:
 * `gridemu.<run>.<address with / as .>.<sender>` for an actor, so `s1/scheduler` hears
 * `gridemu.<run>.s1.scheduler.*`, and `gridemu.<run>.topic.<name>.<sender>` for a topic (the site
 * id `topic` is reserved). The sender is its location (senderOf), so a server configuration can
 * let each process publish only as itself. Run ids and site ids are single subject tokens, so one
 * run never hears another.
 */
export function actorSubject(run: string, address: Address, from: Address): string {
  return `gridemu.${run}.${address.replace(/\//g, '.')}.${senderOf(from)}`;
}

export function topicSubject(run: string, topic: string, from: Address): string {
  return `gridemu.${run}.topic.${topic}.${senderOf(from)}`;
}

/** What a sender publishes to `target` on. */
export function subjectOf(run: string, target: BusTarget, from: Address): string {
  return 'actor' in target ? actorSubject(run, target.actor, from) : topicSubject(run, target.topic, from);
}

/** What a receiver of `target` subscribes to: its subject from any sender. */
export function inboxOf(run: string, target: BusTarget): string {
  return 'actor' in target
    ? `gridemu.${run}.${target.actor.replace(/\//g, '.')}.*`
    : `gridemu.${run}.topic.${target.topic}.*`;
}

/**
 * The inverse of subjectOf: what a subject of `run` is addressed to and who sent it, or undefined
 * for a subject of another run or not of this form.
 */
export function parseSubject(run: string, subject: string): { target: BusTarget; sender: string } | undefined {
  const prefix = `gridemu.${run}.`;
  if (!subject.startsWith(prefix)) return undefined;
  const tokens = subject.slice(prefix.length).split('.');
  const sender = tokens.pop();
  if (sender === undefined || sender === '' || tokens.length === 0 || tokens.some((t) => t === '')) return undefined;
  if (tokens[0] === 'topic') return tokens.length === 2 ? { target: { topic: tokens[1]! }, sender } : undefined;
  // An actor's address is `<location>/<role>` or a bare run-wide name (actorSubject).
  if (tokens.length > 2) return undefined;
  return { target: { actor: tokens.join('/') }, sender };
}

/** The sender a subject names (its last token). */
export function senderOfSubject(subject: string): string {
  return subject.slice(subject.lastIndexOf('.') + 1);
}

/**
 * The subjects a process may publish actor messages on: those naming it as the sender. Every
 * address is `<location>/<role>` or a bare run-wide name, so these two patterns cover them all.
 */
export function publishAsPatterns(run: string, sender: string): string[] {
  return [`gridemu.${run}.*.${sender}`, `gridemu.${run}.*.*.${sender}`];
}

/** The subjects a process hosting `location` may hear: its own actors' and every topic. */
export function hearPatterns(run: string, location: string): string[] {
  return [`gridemu.${run}.${location}.>`, `gridemu.${run}.topic.>`];
}

/** Every subject of a run (for tests and taps). */
export function runWildcard(run: string): string {
  return `gridemu.${run}.>`;
}
