import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  controlSubject,
  decodeControl,
  encodeControl,
  type ControlKind,
  type ControlMessage,
} from '@gridemu/protocol/wire';
import type { Logger } from '@gridemu/runtime';

type Of<K extends ControlKind> = Extract<ControlMessage, { kind: K }>;

/**
 * The control plane over NATS for one run: typed subscribe, publish and request. A control message
 * that fails to decode is counted, logged and dropped, like a malformed actor message.
 */
export class ControlBus {
  private readonly subs: Subscription[] = [];
  malformed = 0;

  constructor(
    readonly nc: NatsConnection,
    readonly run: string,
    private readonly log: Logger,
  ) {}

  on<K extends ControlKind>(kind: K, handler: (msg: Of<K>, raw: Msg) => void): void {
    const sub = this.nc.subscribe(controlSubject(this.run, kind), {
      callback: (err, m) => {
        if (err) return;
        const d = decodeControl(m.data, this.run);
        if (!d.ok || d.msg.kind !== kind) {
          this.malformed++;
          if (this.malformed <= 20)
            this.log.warn(
              { subject: m.subject, reason: d.ok ? `a ${d.msg.kind} on the ${kind} subject` : d.reason },
              'dropped a malformed control message',
            );
          return;
        }
        handler(d.msg as Of<K>, m);
      },
    });
    this.subs.push(sub);
  }

  publish(msg: ControlMessage): void {
    this.nc.publish(controlSubject(this.run, msg.kind), encodeControl(this.run, msg));
  }

  reply(raw: Msg, msg: ControlMessage): void {
    raw.respond(encodeControl(this.run, msg));
  }

  /** One request; resolves to the reply, or undefined if none came within `timeout_ms`. */
  async request<K extends ControlKind>(msg: ControlMessage, expect: K, timeout_ms: number): Promise<Of<K> | undefined> {
    try {
      const reply = await this.nc.request(controlSubject(this.run, msg.kind), encodeControl(this.run, msg), {
        timeout: timeout_ms,
      });
      const d = decodeControl(reply.data, this.run);
      return d.ok && d.msg.kind === expect ? (d.msg as Of<K>) : undefined;
    } catch {
      return undefined; // no responder yet, or a timeout: the caller retries
    }
  }

  close(): void {
    for (const s of this.subs) s.unsubscribe();
    this.subs.length = 0;
  }
}
