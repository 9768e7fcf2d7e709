/**
 * The atomic binary semaphore an origin keeps for each job it sent out as K copies (paper 001
 * §7): the first copy to claim it wins; every later claim from another site is denied.
 *
 * The winner keeps the semaphore for good. A winning site that timed out before the grant
 * reached it keeps its copy and claims again with a new claim id, and is granted again. Handing
 * the semaphore back instead would let a second site win and cancel the first winner's copy after
 * the first grant had already cancelled the second's: a job with no copy left (a property test
 * found exactly that).
 */
export type ClaimVerdict = 'grant' | 'regrant' | 'deny';

export class JobSemaphore {
  private holder: string | undefined;
  private readonly live: string[];

  constructor(copies: readonly string[]) {
    this.live = [...copies];
  }

  /** The sites whose copies may still claim the job (or hold it). */
  get copies(): readonly string[] {
    return this.live;
  }

  get heldBy(): string | undefined {
    return this.holder;
  }

  claim(site: string): ClaimVerdict {
    // A copy withdrawn (or never sent) cannot win.
    if (!this.live.includes(site)) return 'deny';
    if (this.holder === undefined) {
      this.holder = site;
      return 'grant';
    }
    return this.holder === site ? 'regrant' : 'deny';
  }

  /**
   * Withdraws the copy at `site` before any copy has won (an external policy's cancel): its claim
   * is denied from now on. `held`: a copy has won already, nothing is withdrawn; `unknown`: no copy
   * there. The caller must not withdraw the last copy, or the job would never run.
   */
  withdraw(site: string): 'withdrawn' | 'held' | 'unknown' {
    if (this.holder !== undefined) return 'held';
    const at = this.live.indexOf(site);
    if (at < 0) return 'unknown';
    this.live.splice(at, 1);
    return 'withdrawn';
  }

  /** The sites holding copies that must be cancelled once `winner` has the job. */
  losers(winner: string): string[] {
    return this.copies.filter((s) => s !== winner);
  }
}
