import type { NatsConnection } from '@nats-io/transport-node';
import type { Address } from '@gridemu/protocol';
import { checkRunId, type BusSubscription, type BusTarget, type Transport } from '@gridemu/runtime';
import { inboxOf, senderOfSubject, subjectOf } from './subjects.js';

/** The Transport of a live run over one NATS connection: bytes on run-scoped subjects naming receiver and sender. */
export class NatsTransport implements Transport {
  constructor(
    private readonly nc: NatsConnection,
    readonly run: string,
    /** Where subscription errors are reported (the connection closing under a subscription). */
    private readonly onError: (subject: string, err: Error) => void = () => undefined,
  ) {
    checkRunId(run);
  }

  publish(target: BusTarget, from: Address, bytes: Uint8Array): void {
    this.nc.publish(subjectOf(this.run, target, from), bytes);
  }

  subscribe(target: BusTarget, onBytes: (bytes: Uint8Array, subject: string, sender: string) => void): BusSubscription {
    const subject = inboxOf(this.run, target);
    return this.nc.subscribe(subject, {
      callback: (err, m) => {
        if (err) this.onError(subject, err);
        else onBytes(m.data, m.subject, senderOfSubject(m.subject));
      },
    });
  }

  async flush(): Promise<void> {
    await this.nc.flush();
  }
}
