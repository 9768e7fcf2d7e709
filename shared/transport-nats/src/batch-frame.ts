/**
 * Several payloads for one subject in one NATS message (in a live run at speed-up
 * 300,000 a process sent 3 to 4 messages to the same receiver in each flush of the NATS client,
 * and every NATS message costs the client, the server and the receiver their own work).
 *
 * The frame: the byte 0xc1, then for each payload its length (4 bytes, big-endian) and its bytes.
 * 0xc1 is the one byte msgpack never uses, so no envelope starts with it; a lone payload that
 * does (the transport moves any bytes) goes in a frame of one, so a receiver can always tell.
 */
export const BATCH_MARK = 0xc1;

/** Whether a NATS message is a frame of payloads rather than one payload. */
export function isBatch(bytes: Uint8Array): boolean {
  return bytes.length > 0 && bytes[0] === BATCH_MARK;
}

/** One payload as it goes on the wire: as it is, unless it could be read as a frame. */
export function single(payload: Uint8Array): Uint8Array {
  return isBatch(payload) ? encodeBatch([payload]) : payload;
}

export function encodeBatch(payloads: readonly Uint8Array[]): Uint8Array {
  let size = 1;
  for (const p of payloads) size += 4 + p.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  out[0] = BATCH_MARK;
  let at = 1;
  for (const p of payloads) {
    view.setUint32(at, p.length);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
}

/** The payloads of a frame, as views into it; undefined if it is cut short or runs over. */
export function splitBatch(bytes: Uint8Array): Uint8Array[] | undefined {
  if (!isBatch(bytes)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Uint8Array[] = [];
  let at = 1;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) return undefined;
    const length = view.getUint32(at);
    const end = at + 4 + length;
    if (end > bytes.length) return undefined;
    out.push(bytes.subarray(at + 4, end));
    at = end;
  }
  return out.length > 0 ? out : undefined;
}
