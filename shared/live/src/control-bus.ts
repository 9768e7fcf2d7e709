import { randomBytes } from 'node:crypto';
import { headers, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
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
import { PART_HEADER, PART_OF_HEADER, PartJoiner, partBytes, splitIntoParts } from './control-parts.js';

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
  /** Messages this bus has sent in parts, to name each. */
  private partedMessages = 0;
  /** Apart from a restarted process's, which counts its parted messages from 1 again. */
  private readonly incarnation = randomBytes(4).toString('hex');

  constructor(
    readonly nc: NatsConnection,
    readonly run: string,
    private readonly log: Logger,
    readonly self: string,
  ) {}

  on<K extends ControlKind>(kind: K, handler: (msg: Of<K>, raw: Msg) => void): void {
    const joiner = new PartJoiner();
    const sub = this.nc.subscribe(controlKindSubjects(this.run, kind), {
      callback: (err, m) => {
        if (err) return;
        let data = m.data;
        const partOf = m.headers?.get(PART_OF_HEADER);
        if (partOf) {
          const dropped = joiner.dropped;
          const whole = joiner.add(`${m.subject} ${partOf}`, m.headers?.get(PART_HEADER) ?? '', m.data);
          if (joiner.dropped > dropped) {
            this.malformed += joiner.dropped - dropped;
            this.log.warn(
              { subject: m.subject },
              'dropped a control message sent in parts: a part is missing or malformed',
            );
          }
          if (!whole) return;
          data = whole;
        }
        const d = decodeControl(data, this.run);
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
    const subject = controlSubject(this.run, msg.kind, this.self);
    const bytes = encodeControl(this.run, msg);
    const parts = splitIntoParts(bytes, partBytes(this.nc.info?.max_payload));
    if (parts.length === 1) return this.nc.publish(subject, bytes);
    // Larger than the server takes in one message (control-parts.ts): in parts, in order.
    const partOf = `${this.self}.${this.incarnation}.${++this.partedMessages}`;
    parts.forEach((part, i) => {
      const h = headers();
      h.set(PART_OF_HEADER, partOf);
      h.set(PART_HEADER, `${i + 1}/${parts.length}`);
      this.nc.publish(subject, part, { headers: h });
    });
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
