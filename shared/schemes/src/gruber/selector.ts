import type { Rng } from '@gridemu/runtime';
import type { Candidate } from './availability.js';
import type { SelectorName } from './names.js';

/**
 * A submit host's site selector (§2.2, §4.1): picks one of the sites the engine says are
 * available, or, for S-RA, any site at all. Pure: its state is what it chose and what started.
 */
export class SiteSelector {
  private cursor = 0;
  private readonly lastChosen = new Map<string, number>();
  /** G-Obs: jobs each site may still be sent before one of those sent there starts. */
  private readonly credit = new Map<string, number>();

  constructor(
    readonly name: SelectorName,
    /** Every site, in the spec's order (ties go to the earlier one). */
    private readonly sites: readonly string[],
    private readonly rng: Rng,
  ) {
    for (const s of sites) this.credit.set(s, 1);
  }

  /** Whether this selector asks the engine at all (S-RA does not). */
  get asksEngine(): boolean {
    return this.name !== 'S-RA';
  }

  /**
   * The chosen site, or undefined if none will do now. For S-RA, `candidates` is every site the
   * job may still go to, whatever its state.
   */
  choose(candidates: readonly Candidate[]): string | undefined {
    if (candidates.length === 0) return undefined;
    switch (this.name) {
      case 'G-RA':
      case 'S-RA':
        return candidates[this.rng.int(0, candidates.length - 1)]!.site;
      case 'G-RR': {
        // The next available site at or after the cursor, going round the whole site list.
        const offered = new Set(candidates.map((c) => c.site));
        for (let i = 0; i < this.sites.length; i++) {
          const site = this.sites[(this.cursor + i) % this.sites.length]!;
          if (offered.has(site)) return site;
        }
        return undefined;
      }
      case 'G-LU':
        return candidates.reduce((best, c) => (c.used < best.used ? c : best)).site;
      case 'G-LRU':
        return candidates.reduce((best, c) =>
          (this.lastChosen.get(c.site) ?? -Infinity) < (this.lastChosen.get(best.site) ?? -Infinity) ? c : best,
        ).site;
      case 'G-Obs':
        // Fill sites in order, one unstarted job at a time each (§4.1).
        return candidates.find((c) => (this.credit.get(c.site) ?? 0) > 0)?.site;
    }
  }

  /** A job was sent to `site` at `now`. */
  dispatched(site: string, now: number): void {
    this.lastChosen.set(site, now);
    const i = this.sites.indexOf(site);
    if (i >= 0) this.cursor = (i + 1) % this.sites.length;
    this.credit.set(site, (this.credit.get(site) ?? 0) - 1);
  }

  /** A job sent to `site` started there: G-Obs may send one more. */
  started(site: string): void {
    this.credit.set(site, (this.credit.get(site) ?? 0) + 1);
  }

  /** A job sent to `site` came back without starting (withdrawn or failed): its place is free again. */
  returned(site: string): void {
    this.credit.set(site, (this.credit.get(site) ?? 0) + 1);
  }
}
