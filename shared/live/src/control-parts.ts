import { MAX_CONTROL_BYTES } from '@gridemu/protocol/wire';

/**
 * A control message too large for one NATS message, sent in parts. The server refuses a message
 * over its max_payload (1 MB by default, and in the servers compose and Kubernetes run): a GRUBER
 * engine's end-of-run report for examples/gruber-grid3.yaml (15 sites, its mailbox timelines)
 * was over it, and the process died publishing it. The parts go on the message's own subject, in
 * order, each with headers naming the message and the part; the receiver joins them.
 */

/** The header naming the message a part belongs to (its sender's and a counter). */
export const PART_OF_HEADER = 'Gridemu-Part-Of';
/** The header saying which part this is: `i/n`, from 1. */
export const PART_HEADER = 'Gridemu-Part';

/** Room left in each part for the subject, the headers and the protocol line. */
const HEADROOM_BYTES = 16 * 1024;
/** The smallest part, whatever the server says: a floor, not a size any server is known to need. */
const MIN_PART_BYTES = 32 * 1024;

/** How large each part may be on a server whose largest message is `maxPayload` bytes. */
export function partBytes(maxPayload: number | undefined): number {
  return Math.max(MIN_PART_BYTES, (maxPayload ?? 1024 * 1024) - HEADROOM_BYTES);
}

/** `bytes` cut into parts of at most `size` bytes (one part, itself, when it fits). */
export function splitIntoParts(bytes: Uint8Array, size: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return parts.length > 0 ? parts : [bytes];
}

/** Messages being joined at most at once: parts of an older one left over (its sender cut off) are dropped. */
const MAX_OPEN = 16;

/** Joins the parts of messages, on one subscription. */
export class PartJoiner {
  private readonly open = new Map<string, { readonly parts: (Uint8Array | undefined)[]; got: number; bytes: number }>();
  /** Messages given up on: a part lost (the sender cut off mid-message) or a part header that makes no sense. */
  dropped = 0;

  /**
   * Takes one part; returns the whole message once its last part is in, else undefined. `partOf`
   * and `part` are the headers' values.
   */
  add(partOf: string, part: string, data: Uint8Array): Uint8Array | undefined {
    const m = /^(\d+)\/(\d+)$/.exec(part);
    const i = m ? Number(m[1]) : NaN;
    const n = m ? Number(m[2]) : NaN;
    // No more parts than the largest control message needs in the smallest parts.
    if (!(i >= 1 && i <= n && n <= Math.ceil(MAX_CONTROL_BYTES / MIN_PART_BYTES))) {
      this.dropped++;
      return undefined;
    }
    let entry = this.open.get(partOf);
    if (!entry) {
      if (this.open.size >= MAX_OPEN) {
        this.open.delete(this.open.keys().next().value!);
        this.dropped++;
      }
      entry = { parts: new Array<Uint8Array | undefined>(n).fill(undefined), got: 0, bytes: 0 };
      this.open.set(partOf, entry);
    }
    if (entry.parts.length !== n) {
      this.open.delete(partOf);
      this.dropped++;
      return undefined;
    }
    // A part said twice is counted once.
    if (entry.parts[i - 1] === undefined) {
      if (entry.bytes + data.length > MAX_CONTROL_BYTES) {
        this.open.delete(partOf);
        this.dropped++;
        return undefined;
      }
      entry.bytes += data.length;
      // A copy: the client may reuse what it handed the callback once the callback returns.
      entry.parts[i - 1] = data.slice();
      entry.got++;
    }
    if (entry.got < n) return undefined;
    this.open.delete(partOf);
    const whole = new Uint8Array(entry.parts.reduce((a, p) => a + p!.length, 0));
    let at = 0;
    for (const p of entry.parts) {
      whole.set(p!, at);
      at += p!.length;
    }
    return whole;
  }
}
