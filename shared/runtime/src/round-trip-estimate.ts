/**
 * How long to wait for an acknowledgement before resending, from the round trips measured, as
 * TCP's retransmission timer does (RFC 6298, section 2): the smoothed round trip plus four times its
 * variation, never under a floor. Only round trips of messages sent once are measured (Karn's rule:
 * the acknowledgement of a resent message cannot tell which copy it answers).
 */
export class RoundTripEstimate {
  /** Smoothed round trip, wall ms (undefined: none measured yet). */
  private srtt_ms: number | undefined;
  /** Its mean deviation, wall ms. */
  private rttvar_ms = 0;

  /** The first round trip sets the estimate; later ones move it by 1/8, the variation by 1/4. */
  measured(rtt_ms: number): void {
    if (this.srtt_ms === undefined) {
      this.srtt_ms = rtt_ms;
      this.rttvar_ms = rtt_ms / 2;
      return;
    }
    this.rttvar_ms = 0.75 * this.rttvar_ms + 0.25 * Math.abs(this.srtt_ms - rtt_ms);
    this.srtt_ms = 0.875 * this.srtt_ms + 0.125 * rtt_ms;
  }

  /** The wait before a resend, wall ms: `floor_ms` until a round trip is measured, never less. */
  timeout_ms(floor_ms: number): number {
    return this.srtt_ms === undefined ? floor_ms : Math.max(floor_ms, this.srtt_ms + 4 * this.rttvar_ms);
  }
}
