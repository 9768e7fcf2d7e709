import type { Rejoin } from '@gridemu/protocol';
import type { ControlBus } from './control-bus.js';

/** How often a restarted process says again that it rejoined, until the driver answers. */
export const REJOIN_RESEND_MS = 500;

/**
 * A restarted process's `rejoined`, said until the driver's `welcomed` names it. The control plane
 * is NATS core, at most once: a process restarted while the server restarts says it rejoined while
 * its client is still reconnecting, and that message can be lost. Unheard, the driver's
 * summary.json lists no rejoin, its network.json no crash, and a replay of the run leaves the crash
 * out; the processes holding messages for it wait for their next resend instead of sending at once.
 */
export class RejoinAnnouncement {
  private timer: NodeJS.Timeout | undefined;
  /** Copies published so far. */
  sent = 0;
  private answered = false;

  constructor(
    private readonly bus: ControlBus,
    private readonly member: string,
    private readonly rejoin: Rejoin,
    private readonly every_ms = REJOIN_RESEND_MS,
  ) {}

  /** Publishes now and every `every_ms` until welcomed or stopped. */
  start(): void {
    this.say();
    this.timer = setInterval(() => this.say(), this.every_ms);
  }

  /** The driver's answer: stops the resends if it names this process's incarnation; true if this one did. */
  welcomed(member: string, incarnation: number): boolean {
    if (this.answered || member !== this.member || incarnation !== this.rejoin.incarnation) return false;
    this.answered = true;
    this.stop();
    return true;
  }

  get isWelcomed(): boolean {
    return this.answered;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private say(): void {
    this.sent++;
    this.bus.publish({ kind: 'rejoined', member: this.member, rejoin: this.rejoin });
  }
}

/**
 * Which rejoins have been heard, by process and incarnation: a rejoin is said until answered, so
 * its hearers act on the first copy only (one entry in summary.json, one resend of what waits).
 */
export class RejoinsHeard {
  private readonly latest = new Map<string, number>();

  /** True the first time `member`'s `incarnation` is heard; false for a copy or an older incarnation. */
  isNew(member: string, incarnation: number): boolean {
    const seen = this.latest.get(member);
    if (seen !== undefined && seen >= incarnation) return false;
    this.latest.set(member, incarnation);
    return true;
  }
}

/**
 * The driver's side: answers every copy of a rejoin of one of `members` with `welcomed` (the answer
 * to an earlier copy may have been lost), and calls `onNew` for the first copy of each incarnation.
 */
export function answerRejoins(
  bus: ControlBus,
  members: readonly string[],
  onNew: (member: string, rejoin: Rejoin) => void,
): void {
  const heard = new RejoinsHeard();
  bus.on('rejoined', (m) => {
    if (!members.includes(m.member)) return;
    bus.publish({ kind: 'welcomed', member: m.member, incarnation: m.rejoin.incarnation });
    if (heard.isNew(m.member, m.rejoin.incarnation)) onNew(m.member, m.rejoin);
  });
}
