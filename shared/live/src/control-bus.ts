import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  controlKindSubjects,
  controlSenderOf,
  controlSenderProblem,
  controlSubject,
  decodeControl,
  encodeControl,
  type ControlKind,
  type ControlMessage,
} from '@gridemu/protocol/wire';
import type { Logger } from '@gridemu/runtime';

type Of<K extends ControlKind> = Extract<ControlMessage, { kind: K }>;

/**
 * The control plane over NATS for one run, as `self` (`driver`, a member's name, or the
 * orchestrator): typed subscribe, publish and request, each subject naming its sender. A control
 * message that fails to decode is counted, logged and dropped, like a malformed actor message; so
 * is one its sender may not send (a site sending the driver's `abort`, or a heartbeat for another).
 */
export class ControlBus {
  private readonly subs: Subscription[] = [];
  malformed = 0;
  /** Messages dropped because their sender may not send them (controlSenderProblem). */
  forged = 0;

  constructor(
    readonly nc: NatsConnection,
    readonly run: string,
    private readonly log: Logger,
    readonly self: string,
  ) {}

  on<K extends ControlKind>(kind: K, handler: (msg: Of<K>, raw: Msg) => void): void {
    const sub = this.nc.subscribe(controlKindSubjects(this.run, kind), {
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
        const sender = controlSenderOf(m.subject) ?? '';
        const forged = controlSenderProblem(d.msg, sender);
        if (forged) {
          this.forged++;
          if (this.forged <= 20)
            this.log.warn({ subject: m.subject, reason: forged }, 'dropped a control message its sender may not send');
          return;
        }
        handler(d.msg as Of<K>, m);
      },
    });
    this.subs.push(sub);
  }

  publish(msg: ControlMessage): void {
    this.nc.publish(controlSubject(this.run, msg.kind, this.self), encodeControl(this.run, msg));
  }

  reply(raw: Msg, msg: ControlMessage): void {
    raw.respond(encodeControl(this.run, msg));
  }

  /** One request; resolves to the reply, or undefined if none came within `timeout_ms`. */
  async request<K extends ControlKind>(msg: ControlMessage, expect: K, timeout_ms: number): Promise<Of<K> | undefined> {
    try {
      const reply = await this.nc.request(controlSubject(this.run, msg.kind, this.self), encodeControl(this.run, msg), {
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
