import type { NatsConnection } from '@nats-io/transport-node';
import type { Address } from '@gridemu/protocol';
import { checkRunId, type BusSubscription, type BusTarget, type Transport } from '@gridemu/runtime';
import { encodeBatch, single, splitBatch } from './batch-frame.js';
import { inboxOf, senderOfSubject, subjectOf } from './subjects.js';

/** A subject's waiting payloads go out at once past this many bytes (nats-server's default limit is 1 MiB). */
const BATCH_BYTES = 64 * 1024;
/** How long a flush the server did not answer (it went away) waits before it is asked again. */
const FLUSH_RETRY_MS = 50;

/**
 * The Transport of a live run over one NATS connection: bytes on run-scoped subjects naming receiver
 * and sender. What a process publishes to one subject within a turn of its event loop goes as one
 * NATS message (batch-frame.ts), sent when the turn's synchronous work is done, as the NATS client
 * would have written them; a subscriber gets the payloads one by one, in the order published. Payloads
 * to different subjects keep their order per subject only, as the simulator's links do.
 */
export class NatsTransport implements Transport {
  /** Payloads waiting for the end of the turn, by subject, subjects in the order first published to. */
  private pending = new Map<string, { payloads: Uint8Array[]; bytes: number }>();
  private flushQueued = false;
  /** NATS messages published, and how many of them carried several payloads. */
  private sent = 0;
  private batches = 0;
  /** Flushes asked again because the server went away before answering (flush). */
  private flushRetries = 0;
  private readonly reconnectListeners: (() => void)[] = [];
  private readonly disconnectListeners: (() => void)[] = [];
  private watchingStatus = false;

  constructor(
    private readonly nc: NatsConnection,
    readonly run: string,
    /** Where errors are reported: the connection closing under a subscription, or before a turn's publishes went out. */
    private readonly onError: (subject: string, err: Error) => void = () => undefined,
  ) {
    checkRunId(run);
  }

  publish(target: BusTarget, from: Address, bytes: Uint8Array): void {
    const subject = subjectOf(this.run, target, from);
    let waiting = this.pending.get(subject);
    if (!waiting) this.pending.set(subject, (waiting = { payloads: [], bytes: 0 }));
    waiting.payloads.push(bytes);
    waiting.bytes += bytes.length;
    if (waiting.bytes >= BATCH_BYTES) {
      this.pending.delete(subject);
      this.send(subject, waiting.payloads);
    }
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.sendPending);
    }
  }

  subscribe(target: BusTarget, onBytes: (bytes: Uint8Array, subject: string, sender: string) => void): BusSubscription {
    const subject = inboxOf(this.run, target);
    return this.nc.subscribe(subject, {
      callback: (err, m) => {
        if (err) {
          this.onError(subject, err);
          return;
        }
        const sender = senderOfSubject(m.subject);
        const payloads = splitBatch(m.data);
        // A frame cut short goes up whole: the receiver cannot decode it, counts it and drops it.
        if (payloads === undefined) onBytes(m.data, m.subject, sender);
        else for (const p of payloads) onBytes(p, m.subject, sender);
      },
    });
  }

  onReconnect(listener: () => void): () => void {
    return this.listen(this.reconnectListeners, listener);
  }

  onDisconnect(listener: () => void): () => void {
    return this.listen(this.disconnectListeners, listener);
  }

  private listen(listeners: (() => void)[], listener: () => void): () => void {
    listeners.push(listener);
    this.watchStatus();
    return () => {
      const i = listeners.indexOf(listener);
      if (i >= 0) listeners.splice(i, 1);
    };
  }

  private watchStatus(): void {
    if (this.watchingStatus) return;
    this.watchingStatus = true;
    void (async () => {
      // Ends when the connection closes.
      for await (const s of this.nc.status()) {
        const listeners =
          s.type === 'reconnect' ? this.reconnectListeners : s.type === 'disconnect' ? this.disconnectListeners : [];
        for (const f of [...listeners]) f();
      }
    })();
  }

  counts(): Iterable<readonly [string, number]> {
    return [
      ['bus.nats_messages', this.sent],
      ['bus.nats_batches', this.batches],
      // Only when it happened: a run the server stayed up for counts nothing new.
      ...(this.flushRetries > 0 ? [['bus.flush_retries', this.flushRetries] as const] : []),
    ];
  }

  /**
   * Resolves once the server has had everything published and subscribed so far. A server that
   * goes away meanwhile (a restart) rejects the flush in flight, and every flush asked while the
   * client redials; the client subscribes again once it is back, so the flush is asked again until
   * one is answered, or the connection is closed for good (the client leaves a flush pending at
   * its close unanswered, so the close is watched too). A process restarted after a crash whose
   * start met a restart of the server failed here, and with it the run (docs/faults.md).
   */
  async flush(): Promise<void> {
    this.sendPending();
    for (;;) {
      let outcome: 'answered' | 'closed';
      try {
        outcome = await Promise.race([
          this.nc.flush().then(() => 'answered' as const),
          this.nc.closed().then(() => 'closed' as const),
        ]);
      } catch (err) {
        if (this.nc.isClosed()) throw err;
        this.flushRetries++;
        await new Promise((r) => setTimeout(r, FLUSH_RETRY_MS));
        continue;
      }
      if (outcome === 'closed') throw new Error('the connection to the NATS server closed before a flush was answered');
      return;
    }
  }

  private readonly sendPending = (): void => {
    this.flushQueued = false;
    const pending = this.pending;
    if (pending.size === 0) return;
    this.pending = new Map();
    for (const [subject, waiting] of pending) this.send(subject, waiting.payloads);
  };

  private send(subject: string, payloads: readonly Uint8Array[]): void {
    try {
      this.nc.publish(subject, payloads.length === 1 ? single(payloads[0]!) : encodeBatch(payloads));
      this.sent++;
      if (payloads.length > 1) this.batches++;
    } catch (err) {
      // Sent after the turn, so no caller is left to throw to: a closed connection is reported.
      this.onError(subject, err as Error);
    }
  }
}
