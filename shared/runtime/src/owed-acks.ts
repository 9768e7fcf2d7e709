/** An acknowledgement held for a durable message until each delivery it made is journaled. */
export interface OwedAck {
  /** Deliveries of it not yet recorded, plus one while its receipt is still queueing them. */
  owed: number;
  /** Called once, when the last of them is recorded. */
  readonly settle: () => void;
}

/**
 * Acknowledgements of durable messages in a journaled process, held until what they acknowledge
 * is in the journal. A sender forgets a message once acknowledged, so an acknowledgement that left
 * before its delivery was stored would lose the message to a crash: the restart replays only what
 * was stored, and nobody resends. Sent at receipt, an acknowledgement went out with the next append
 * even when its delivery was still in the mailbox (a saturated process handles at most a turn's
 * budget of deliveries before it commits), so a message settles when its delivery is recorded
 * instead, in that delivery's own append (StoredThrough, then the acknowledgement's output, leaves
 * once that append is stored). A message's first copy opens one (owedAck), each delivery queued
 * for an actor adds one to `owed`, and the receipt and each recorded delivery settle one.
 */
export function owedAck(settle: () => void): OwedAck {
  return { owed: 1, settle };
}

/** A delivery of it recorded (or its receipt done queueing): with the last, it settles. */
export function settleOwed(owed: OwedAck): void {
  if (--owed.owed === 0) owed.settle();
}
