/** One operation of the NATS protocol, whole: its bytes, and the subject if it carries a message. */
export interface NatsFrame {
  readonly bytes: Buffer;
  /** The subject of a PUB, HPUB, MSG or HMSG; undefined for every other operation (CONNECT, SUB, PING, INFO, …). */
  readonly subject: string | undefined;
}

const CRLF = Buffer.from('\r\n');
/** A control line longer than this is not NATS: the connection is cut rather than buffered forever. */
const MAX_CONTROL_LINE = 64 * 1024;

/**
 * Splits a NATS byte stream into whole operations, so a proxy can delay or hold each message on its
 * own (https://docs.nats.io/reference/reference-protocols/nats-protocol). What a client sends:
 * `PUB <subject> [reply] <#bytes>\r\n<payload>\r\n`, `HPUB <subject> [reply] <#hdr> <#total>\r\n…`;
 * what the server sends: `MSG <subject> <sid> [reply] <#bytes>\r\n…`, `HMSG <subject> <sid> [reply]
 * <#hdr> <#total>\r\n…`; and one-line operations (CONNECT, SUB, UNSUB, PING, PONG, INFO, +OK, -ERR).
 */
export class NatsFrameSplitter {
  private pending: Buffer = Buffer.alloc(0);

  /** Feeds bytes; returns the operations now complete, in order. Throws on a stream that is not NATS. */
  push(chunk: Buffer): NatsFrame[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: NatsFrame[] = [];
    let at = 0;
    for (;;) {
      const eol = this.pending.indexOf(CRLF, at);
      if (eol < 0) {
        if (this.pending.length - at > MAX_CONTROL_LINE)
          throw new Error(`a NATS control line of over ${MAX_CONTROL_LINE} bytes`);
        break;
      }
      const line = this.pending.toString('latin1', at, eol);
      const op = line.slice(0, 5).toUpperCase();
      let end = eol + 2;
      let subject: string | undefined;
      const publish = op.startsWith('PUB ') || op.startsWith('HPUB ');
      if (publish || op.startsWith('MSG ') || op.startsWith('HMSG ')) {
        const args = line.trim().split(/\s+/);
        const size = Number(args[args.length - 1]);
        if (!Number.isInteger(size) || size < 0 || args.length < (publish ? 3 : 4))
          throw new Error(`malformed NATS ${publish ? 'publish' : 'message'} line: ${line.slice(0, 80)}`);
        subject = args[1];
        end = eol + 2 + size + 2;
        if (end > this.pending.length) break; // the payload has not all arrived yet
      }
      frames.push({ bytes: this.pending.subarray(at, end), subject });
      at = end;
    }
    this.pending = at === 0 ? this.pending : Buffer.from(this.pending.subarray(at));
    return frames;
  }
}
