import { randomBytes } from 'node:crypto';
import {
  controlSenderSubjects,
  controlWildcard,
  ORCHESTRATOR_SENDER,
  requestInboxPrefix,
} from '@gridemu/protocol/wire';
import { hearPatterns, journalPermissions, publishAsPatterns, runWildcard } from '@gridemu/transport-nats';
import { warmUpRun } from './warm-up.js';

/** One process's NATS user in a run, and the subjects it may publish and subscribe to. */
export interface ProcessCredentials {
  readonly user: string;
  readonly password: string;
  readonly publish: readonly string[];
  readonly subscribe: readonly string[];
}

/** The user `gridemu run` itself connects as: the control plane only, no actor traffic. */
export const ORCHESTRATOR = ORCHESTRATOR_SENDER;

/**
 * A user per process of a run, with a password made for the run: each location's
 * process, the driver, and the orchestrator. A process may publish actor messages only on subjects
 * that name it as the sender, hear only its own actors' subjects and the topics, and reach only its
 * own journal's stream. Everyone hears the run's control plane (a forged control message can
 * disturb a run but cannot grant, deny or cancel a job: docs/faults.md). Each hears only its own
 * request inboxes, and only the one who answers a request may reply into them: the driver into a
 * location's (`hello`), the orchestrator into the driver's (`tally`).
 */
export function runCredentials(run: string, locations: readonly string[]): Map<string, ProcessCredentials> {
  const users = new Map<string, ProcessCredentials>();
  const add = (name: string, publish: string[], subscribe: string[], warmUp?: string) => {
    if (users.has(name)) throw new Error(`two processes of run ${run} would be the NATS user "${name}"`);
    // Its warm-up's namespace is its own: nothing there reaches the run or another process's warm-up.
    const own = warmUp === undefined ? [] : [warmUp];
    users.set(name, {
      user: name,
      password: newPassword(),
      // The control plane: it hears all of it, and publishes only on subjects naming itself.
      publish: [...publish, ...own, controlSenderSubjects(run, name)],
      subscribe: [...subscribe, ...own, controlWildcard(run), inboxesOf(run, name)],
    });
  };
  // A location's process may also keep its journal, in its own JetStream stream and no other.
  for (const location of locations)
    add(
      location,
      [...publishAsPatterns(run, location), ...journalPermissions(run, location)],
      hearPatterns(run, location),
      runWildcard(warmUpRun(run, location)),
    );
  add(
    'driver',
    [...publishAsPatterns(run, 'driver'), ...locations.map((l) => inboxesOf(run, l))],
    hearPatterns(run, 'driver'),
    runWildcard(warmUpRun(run, undefined)),
  );
  add(ORCHESTRATOR, [inboxesOf(run, 'driver')], []);
  return users;
}

/** Every request inbox of `user` in `run`. */
export function inboxesOf(run: string, user: string): string {
  return `${requestInboxPrefix(run, user)}.>`;
}

/** A password made for one run or deployment. */
export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}
