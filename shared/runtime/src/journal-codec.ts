import { Decoder, Encoder } from '@msgpack/msgpack';
import type { Message } from '@gridemu/protocol';
import type { JournalBatch, JournalEntry } from './journal-entry.js';

/**
 * The first byte of a stored batch: the format it is in. 0x4e since a batch says how far its
 * process's output had left (0x4d: the journal keeps when the process was cut off from the bus
 * and back on it; 0x4c: a timer's entry keeps when it was due, fired and was handled; 0x4b:
 * acknowledgements cumulative per link; 0x4a: an `ack` was a message id).
 */
const FORMAT = 0x4e;
/** Its header: the format (u8), seq (f64), released (f64), the entry count (u32). */
const HEADER_BYTES = 21;

const KIND = { start: 1, bus: 2, local: 3, timer: 4, recover: 5, ack: 6, bus_outage: 7 } as const;
const KIND_NAMES = ['', 'start', 'bus', 'local', 'timer', 'recover', 'ack', 'bus_outage'] as const;
/** A `bus_outage` entry's edge. */
const EDGE = { cut: 1, back: 2 } as const;
/** A `bus` entry's flags: a topic's message; its arrival time follows. */
const BUS_TOPIC = 1;
const BUS_POSTED = 2;
/** A `timer` entry's flag: its due, firing and handling times follow. */
const TIMER_FIRED = 1;

const messageEncoder = new Encoder({ ignoreUndefined: true });
const messageDecoder = new Decoder();

/**
 * Journal batches in a binary layout of their own (docs/faults.md, "The journal"). A journaled
 * process encodes every delivery it handles, so at saturation the encoding is a real part of what
 * the journal costs: as msgpack objects, a tenth of a site's CPU went into encoding again messages
 * it had just decoded. Here a bus message is stored as the envelope it arrived in, copied, not
 * encoded again; an actor's address is written once per batch and named by its index after that;
 * only a timer's message (an object the process made) is encoded, as msgpack.
 *
 * Layout, little-endian: FORMAT (u8), seq (f64), released (f64), entry count (u32), then each
 * entry: its kind (u8), then for `ack` its link (str) and the number acknowledged up to (f64); for
 * `bus_outage` its edge (u8: 1 cut off, 2 back) and its time (f64); for the others the actor (u16
 * index into the batch's addresses, a new one followed by its str), the actor's time (f64), then by
 * kind: `bus` flags (u8: 1 a topic's, 2 its arrival time follows), its arrival time (f64, if
 * flagged) and the envelope (u32 length, bytes); `local` seq (f64); `timer` id (f64), flags (u8: 1
 * its due, firing and handling times follow), those times (3 f64, if flagged) and the message (u32
 * length, msgpack); `recover` crashed_s (f64). A str is a u16 byte length and UTF-8.
 */
export class JournalBatchWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private at = 0;
  private readonly addresses = new Map<string, number>();

  encode(batch: JournalBatch): Uint8Array {
    this.at = 0;
    this.addresses.clear();
    this.room(HEADER_BYTES);
    this.buf[this.at++] = FORMAT;
    this.at = this.buf.writeDoubleLE(batch.seq, this.at);
    this.at = this.buf.writeDoubleLE(batch.released ?? 0, this.at);
    this.at = this.buf.writeUInt32LE(batch.entries.length, this.at);
    for (const e of batch.entries) this.entry(e);
    // A copy: the store may keep it (or send it later) while this buffer takes the next batch.
    return new Uint8Array(this.buf.subarray(0, this.at));
  }

  private entry(e: JournalEntry): void {
    this.room(1);
    this.buf[this.at++] = KIND[e.k];
    if (e.k === 'ack') {
      this.str(e.link);
      return this.f64(e.upto);
    }
    if (e.k === 'bus_outage') {
      this.room(1);
      this.buf[this.at++] = EDGE[e.edge];
      return this.f64(e.at_s);
    }
    this.address(e.a);
    this.f64(e.t);
    switch (e.k) {
      case 'start':
        return;
      case 'bus':
        this.room(1);
        this.buf[this.at++] = (e.topic === true ? BUS_TOPIC : 0) | (e.posted !== undefined ? BUS_POSTED : 0);
        if (e.posted !== undefined) this.f64(e.posted);
        return this.bytes(e.envelope);
      case 'local':
        return this.f64(e.seq);
      case 'timer':
        this.f64(e.id);
        this.room(1);
        this.buf[this.at++] = e.fired !== undefined ? TIMER_FIRED : 0;
        if (e.fired !== undefined) {
          this.f64(e.fired.due_s);
          this.f64(e.fired.at_s);
          this.f64(e.fired.handled_s);
        }
        return this.bytes(messageEncoder.encode(e.msg));
      case 'recover':
        return this.f64(e.crashed_s);
    }
  }

  private address(a: string): void {
    const index = this.addresses.get(a);
    this.room(2);
    if (index !== undefined) {
      this.at = this.buf.writeUInt16LE(index, this.at);
      return;
    }
    this.at = this.buf.writeUInt16LE(this.addresses.size, this.at);
    this.addresses.set(a, this.addresses.size);
    this.str(a);
  }

  private str(s: string): void {
    this.room(2 + 3 * s.length);
    const n = this.buf.write(s, this.at + 2, 'utf8');
    if (n > 0xffff) throw new Error(`a journal string of ${n} bytes is too long to store`);
    this.buf.writeUInt16LE(n, this.at);
    this.at += 2 + n;
  }

  private f64(x: number): void {
    this.room(8);
    this.at = this.buf.writeDoubleLE(x, this.at);
  }

  private bytes(b: Uint8Array): void {
    this.room(4 + b.byteLength);
    this.at = this.buf.writeUInt32LE(b.byteLength, this.at);
    this.buf.set(b, this.at);
    this.at += b.byteLength;
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.byteLength) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.byteLength, this.at + n));
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }
}

/** Decodes a stored batch; a batch that is not one is an error naming its place in the journal. */
export function decodeJournalBatch(bytes: Uint8Array, index: number): JournalBatch {
  const bad = (why: string) => new Error(`journal record ${index + 1} is not a batch of deliveries: ${why}`);
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.byteLength < HEADER_BYTES || b[0] !== FORMAT) throw bad('it does not start as one');
  let at = 1;
  const need = (n: number) => {
    if (at + n > b.byteLength) throw bad(`it ends inside an entry, at byte ${at}`);
  };
  const f64 = () => {
    need(8);
    const x = b.readDoubleLE(at);
    at += 8;
    return x;
  };
  const str = () => {
    need(2);
    const n = b.readUInt16LE(at);
    need(2 + n);
    const s = b.toString('utf8', at + 2, at + 2 + n);
    at += 2 + n;
    return s;
  };
  const bytesOf = () => {
    need(4);
    const n = b.readUInt32LE(at);
    need(4 + n);
    // A copy, so an entry does not hold the whole record alive.
    const out = new Uint8Array(b.subarray(at + 4, at + 4 + n));
    at += 4 + n;
    return out;
  };
  const seq = f64();
  const released = f64();
  need(4);
  const count = b.readUInt32LE(at);
  at += 4;
  const addresses: string[] = [];
  const entries: JournalEntry[] = [];
  for (let i = 0; i < count; i++) {
    need(1);
    const kind = KIND_NAMES[b[at++]!];
    if (kind === undefined || kind === '') throw bad(`entry ${i + 1} has an unknown kind`);
    if (kind === 'ack') {
      const link = str();
      entries.push({ k: 'ack', link, upto: f64() });
      continue;
    }
    if (kind === 'bus_outage') {
      need(1);
      const edge = b[at++]!;
      if (edge !== EDGE.cut && edge !== EDGE.back) throw bad(`entry ${i + 1} has an unknown edge ${edge}`);
      entries.push({ k: 'bus_outage', edge: edge === EDGE.cut ? 'cut' : 'back', at_s: f64() });
      continue;
    }
    need(2);
    const index = b.readUInt16LE(at);
    at += 2;
    if (index === addresses.length) addresses.push(str());
    const a = addresses[index];
    if (a === undefined) throw bad(`entry ${i + 1} names actor ${index}, not yet named`);
    const t = f64();
    switch (kind) {
      case 'start':
        entries.push({ k: 'start', a, t });
        break;
      case 'bus': {
        need(1);
        const flags = b[at++]!;
        if (flags > (BUS_TOPIC | BUS_POSTED)) throw bad(`entry ${i + 1} has unknown flags ${flags}`);
        const posted = (flags & BUS_POSTED) !== 0 ? f64() : undefined;
        entries.push({
          k: 'bus',
          a,
          t,
          envelope: bytesOf(),
          ...((flags & BUS_TOPIC) !== 0 ? { topic: true as const } : {}),
          ...(posted !== undefined ? { posted } : {}),
        });
        break;
      }
      case 'local':
        entries.push({ k: 'local', a, t, seq: f64() });
        break;
      case 'timer': {
        const id = f64();
        need(1);
        const flags = b[at++]!;
        if (flags > TIMER_FIRED) throw bad(`entry ${i + 1} has unknown flags ${flags}`);
        const fired = flags === TIMER_FIRED ? { due_s: f64(), at_s: f64(), handled_s: f64() } : undefined;
        const msg = messageDecoder.decode(bytesOf()) as Message;
        entries.push({ k: 'timer', a, t, id, msg, ...(fired !== undefined ? { fired } : {}) });
        break;
      }
      case 'recover':
        entries.push({ k: 'recover', a, t, crashed_s: f64() });
        break;
    }
  }
  if (at !== b.byteLength) throw bad(`${b.byteLength - at} bytes follow its last entry`);
  return { seq, released, entries };
}

const writer = new JournalBatchWriter();

/** Encodes a batch for the store (JournalBatchWriter's layout); decodeJournalBatch reads it back. */
export function encodeJournalBatch(batch: JournalBatch): Uint8Array {
  return writer.encode(batch);
}
