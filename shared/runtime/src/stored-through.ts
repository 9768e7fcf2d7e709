/** One link's state: the highest number up to which every message is settled, and those settled past it. */
interface Link {
  through: number;
  readonly above: Set<number>;
}

/**
 * What a receiving runtime may acknowledge of each link's durable messages (numbered by their
 * senders, Envelope.lseq): the highest number up to which every one is settled, delivered and,
 * with a journal, recorded in it. A link's messages are delivered in order (LinkOrder), but with a
 * journal a message settles only once each of its deliveries is recorded, and two actors'
 * mailboxes may record a link's messages out of order: one settled past a gap waits in `above`.
 */
export class StoredThrough {
  private readonly links = new Map<string, Link>();

  /** Message `n` of `link` is settled. Returns the link's new cumulative number if it moved, else undefined. */
  settled(link: string, n: number): number | undefined {
    let l = this.links.get(link);
    if (l === undefined) this.links.set(link, (l = { through: 0, above: new Set() }));
    if (n <= l.through) return undefined;
    if (n > l.through + 1) {
      l.above.add(n);
      return undefined;
    }
    l.through = n;
    while (l.above.delete(l.through + 1)) l.through++;
    return l.through;
  }

  /** The highest number of `link` up to which every message is settled (0: none). */
  through(link: string): number {
    return this.links.get(link)?.through ?? 0;
  }
}
