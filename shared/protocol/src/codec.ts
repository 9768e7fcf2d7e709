import { Decoder, Encoder } from '@msgpack/msgpack';
import type { Address } from './addresses.js';
import type { Message } from './messages.js';
import { messageProblem, type MessageCheck } from './validate-message.js';

/** Bumped on any incompatible change to the catalogue; a message of another version is dropped. */
export const PROTOCOL_VERSION = 3;

/** Larger payloads are refused before they are decoded (a job message is a few hundred bytes). */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** Longer lists are refused before they are decoded: a sender must split what would be longer. */
export const MAX_LIST_LENGTH = 4096;

/** What goes on the wire: the message, stamped with who sent it, for whom, in which run, in which version. */
export interface Envelope {
  readonly v: number;
  readonly run: string;
  readonly from: Address;
  readonly to: Address;
  readonly msg: Message;
  /** Wall-clock send time (ms since the Unix epoch, fractional), for measuring one-way latency live. */
  readonly sent_ms?: number;
  /**
   * The sender's emulated time when it sent (its actor clock): the receiver measures the delay the
   * schedule felt, hop, timer lag and queues together (`simulate --network-from`).
   */
  readonly at_s?: number;
  /**
   * A durable message's number on its link (its sender's location to its receiver's), from 1: its
   * sender resends it until acknowledged, and the receiver delivers a link's durable messages once
   * each, in this order (LinkOrder), whatever order resends bring them in. The link and the number
   * are its id: one acknowledgement names the highest number up to which a link's messages are
   * all stored (BusAck.upto).
   */
  readonly lseq?: number;
}

// One encoder and one decoder for the process: msgpack's encode() and decode() build a new one per
// call, which at thousands of messages a second is most of their cost.
const encoder = new Encoder({ ignoreUndefined: true });
const decoder = new Decoder({
  maxStrLength: MAX_MESSAGE_BYTES,
  maxBinLength: MAX_MESSAGE_BYTES,
  maxArrayLength: MAX_LIST_LENGTH,
  maxMapLength: 256,
  maxExtLength: 0,
});

export function encodeEnvelope(e: Omit<Envelope, 'v'>): Uint8Array {
  return encoder.encode({
    v: PROTOCOL_VERSION,
    run: e.run,
    from: e.from,
    to: e.to,
    msg: e.msg,
    sent_ms: e.sent_ms,
    at_s: e.at_s,
    lseq: e.lseq,
  });
}

export type Decoded =
  { readonly ok: true; readonly envelope: Envelope } | { readonly ok: false; readonly reason: string };

/**
 * Decodes and validates bytes from the bus. Never throws: anything wrong (not msgpack, too big,
 * another version or run, a malformed message) comes back as a reason, for the receiver to count,
 * log and drop (DESIGN.md, "What the bus carries").
 */
export function decodeEnvelope(bytes: Uint8Array, expectedRun?: string, check: MessageCheck = messageProblem): Decoded {
  if (bytes.byteLength > MAX_MESSAGE_BYTES)
    return { ok: false, reason: `payload of ${bytes.byteLength} bytes is over the ${MAX_MESSAGE_BYTES}-byte limit` };
  let raw: unknown;
  try {
    raw = decoder.decode(bytes);
  } catch (err) {
    return { ok: false, reason: `not msgpack: ${(err as Error).message.slice(0, 120)}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, reason: 'envelope is not a map' };
  const e = raw as Record<string, unknown>;
  if (e['v'] !== PROTOCOL_VERSION)
    return {
      ok: false,
      reason: `protocol version ${JSON.stringify(e['v'])?.slice(0, 20)} (this process speaks ${PROTOCOL_VERSION})`,
    };
  const run = e['run'];
  const from = e['from'];
  const to = e['to'];
  if (typeof run !== 'string' || run.length === 0)
    return { ok: false, reason: 'envelope.run must be a non-empty string' };
  if (typeof from !== 'string' || from.length === 0)
    return { ok: false, reason: 'envelope.from must be a non-empty string' };
  if (typeof to !== 'string' || to.length === 0) return { ok: false, reason: 'envelope.to must be a non-empty string' };
  if (expectedRun !== undefined && run !== expectedRun)
    return { ok: false, reason: `message of run "${run.slice(0, 60)}", not of this run` };
  const sent = e['sent_ms'];
  if (sent !== undefined && (typeof sent !== 'number' || !Number.isFinite(sent)))
    return { ok: false, reason: 'envelope.sent_ms must be a finite number' };
  const at = e['at_s'];
  if (at !== undefined && (typeof at !== 'number' || !Number.isFinite(at)))
    return { ok: false, reason: 'envelope.at_s must be a finite number' };
  const lseq = e['lseq'];
  if (lseq !== undefined && (typeof lseq !== 'number' || !Number.isSafeInteger(lseq) || lseq < 1))
    return { ok: false, reason: 'envelope.lseq must be a positive integer' };
  const problem = check(e['msg']);
  if (problem) return { ok: false, reason: problem };
  // Built field by field, not spread: every message from the bus comes through here.
  const envelope: { -readonly [K in keyof Envelope]: Envelope[K] } = {
    v: PROTOCOL_VERSION,
    run,
    from,
    to,
    msg: e['msg'] as Message,
  };
  if (sent !== undefined) envelope.sent_ms = sent;
  if (at !== undefined) envelope.at_s = at;
  if (lseq !== undefined) envelope.lseq = lseq;
  return { ok: true, envelope };
}
