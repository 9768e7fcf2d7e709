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

  constructor(readonly copies: readonly string[]) {}

  get heldBy(): string | undefined {
    return this.holder;
  }

  claim(site: string): ClaimVerdict {
    if (this.holder === undefined) {
      this.holder = site;
      return 'grant';
    }
    return this.holder === site ? 'regrant' : 'deny';
  }

  /** The sites holding copies that must be cancelled once `winner` has the job. */
  losers(winner: string): string[] {
    return this.copies.filter((s) => s !== winner);
  }
}
