/** An acknowledgement held for a durable message until each delivery it made is journaled. */
export interface OwedAck {
  readonly mid: string;
  /** Deliveries of it not yet recorded, plus one while its receipt is still queueing them. */
  owed: number;
  readonly send: () => void;
}

/**
 * Acknowledgements of durable messages in a journaled process, held until what they acknowledge
 * is in the journal. A sender forgets a message once acknowledged, so an acknowledgement that left
 * before its delivery was stored would lose the message to a crash: the restart replays only what
 * was stored, and nobody resends. Sent at receipt, an acknowledgement went out with the next append
 * even when its delivery was still in the mailbox (a saturated process handles at most a turn's
 * budget of deliveries before it commits), so it is sent when the delivery is recorded instead, in
 * that delivery's own append (its output leaves once that append is stored). A topic message made
 * several deliveries: its acknowledgement waits for the last of them.
 */
export class OwedAcks {
  private readonly byMid = new Map<string, OwedAck>();

  /** A message's first copy has arrived: its acknowledgement waits until `settle` has been called once for the receipt and once per delivery `add`ed. */
  open(mid: string, send: () => void): OwedAck {
    const owed: OwedAck = { mid, owed: 1, send };
    this.byMid.set(mid, owed);
    return owed;
  }

  /** One more delivery of it queued for an actor. */
  add(owed: OwedAck): void {
    owed.owed++;
  }

  /** A delivery of it recorded (or its receipt done queueing): with the last, the acknowledgement is sent. */
  settle(owed: OwedAck): void {
    if (--owed.owed > 0) return;
    this.byMid.delete(owed.mid);
    owed.send();
  }

  /** Whether the first copy's acknowledgement is still held: a later copy then needs none of its own. */
  held(mid: string): boolean {
    return this.byMid.has(mid);
  }
}
