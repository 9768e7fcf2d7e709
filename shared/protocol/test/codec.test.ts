import { encode } from '@msgpack/msgpack';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageValidator, MessageType, type Message } from '../src/index.js';
import { decodeEnvelope, encodeEnvelope, MAX_MESSAGE_BYTES, PROTOCOL_VERSION } from '../src/wire.js';

const job = {
  id: 's1!15',
  workload: 's1',
  origin: 's1',
  submit_s: 599850,
  run_s: 3477,
  estimate_s: 53940,
  procs: 4,
  group: 12,
};
const envelope = (msg: Message) => ({ run: 'r1', from: 's1/meta', to: 's2/scheduler', msg });

describe('the wire codec', () => {
  it('round-trips a message with its envelope', () => {
    const msg: Message = {
      type: MessageType.JobStarted,
      jobId: job.id,
      site: 's2',
      time_s: 600_000,
      resources: '0-3',
      trail: { copies: 3, migrations: 0, replans: 0 },
    };
    const d = decodeEnvelope(encodeEnvelope(envelope(msg)), 'r1');
    expect(d).toEqual({ ok: true, envelope: { v: PROTOCOL_VERSION, ...envelope(msg) } });
  });

  it('refuses, with a reason, what is not a valid message of this run and version', () => {
    const bad = (value: unknown, run?: string) => {
      const d = decodeEnvelope(encode(value), run);
      expect(d.ok).toBe(false);
      return d.ok ? '' : d.reason;
    };
    const ok = { v: PROTOCOL_VERSION, run: 'r1', from: 'a', to: 'b', msg: { type: 'timer.job-ends', jobId: 'x!1' } };
    expect(bad({ ...ok, v: PROTOCOL_VERSION + 1 })).toMatch(new RegExp(`protocol version ${PROTOCOL_VERSION + 1}`));
    const failed = { type: 'job.failed', jobId: 'x!1', time_s: 5, reason: 'retry_limit' };
    expect(bad({ ...ok, msg: failed })).toMatch(/job.failed.trail must be a map of copies, migrations and replans/);
    expect(bad({ ...ok, msg: { ...failed, trail: { copies: 2, migrations: -1, replans: 0 } } })).toMatch(
      /job.failed.trail .migrations must be a non-negative integer/,
    );
    expect(bad(ok, 'r2')).toMatch(/not of this run/);
    expect(bad({ ...ok, msg: { type: 'job.exploded' } })).toMatch(/unknown message type "job.exploded"/);
    expect(bad({ ...ok, msg: { type: 'timer.job-ends', jobId: 7 } })).toMatch(
      /timer.job-ends.jobId must be a non-empty string/,
    );
    expect(bad({ ...ok, msg: { type: 'job.submit', job: { ...job, procs: '4' } } })).toMatch(
      /job.submit.job .procs must be a non-negative integer/,
    );
    expect(bad({ ...ok, msg: { type: 'job.submit', job: { ...job, run_s: Infinity } } })).toMatch(
      /run_s must be a finite number/,
    );
    expect(bad({ ...ok, msg: { type: 'timer.job-ends', jobId: 'x', extra: 1 } })).toMatch(/unexpected field "extra"/);
    // A field a family gives its jobs is refused by the core catalogue, and checked by its rule
    // in a catalogue the family extends.
    const task = { ...job, id: 'w!0/T2', dag: 'w!0', parents: ['w!0/T1'] };
    const submit = (j: unknown) => encode({ ...ok, msg: { type: 'job.submit', job: j } });
    expect(bad({ ...ok, msg: { type: 'job.submit', job: task } })).toBe(
      'job.submit.job has an unexpected field "parents"',
    );
    const withParents = messageValidator({
      jobFields: [{ parents: (v) => (Array.isArray(v) ? undefined : 'must be a list of job ids') }],
    });
    expect(decodeEnvelope(submit(task), 'r1', withParents).ok).toBe(true);
    expect(decodeEnvelope(submit({ ...task, parents: 'w!0/T1' }), 'r1', withParents)).toEqual({
      ok: false,
      reason: 'job.submit.job .parents must be a list of job ids',
    });
    expect(() => messageValidator({ jobFields: [{ procs: 'count' }] })).toThrow(/job field "procs" is defined twice/);
    // A completion may carry the moves made while the job ran.
    const done = { type: 'job.completed', jobId: 'x!1', site: 's1', time_s: 5 };
    expect(
      decodeEnvelope(encode({ ...ok, msg: { ...done, trail: { copies: 1, migrations: 2, replans: 0 } } }), 'r1').ok,
    ).toBe(true);
    expect(decodeEnvelope(encode({ ...ok, msg: done }), 'r1').ok).toBe(true);
    expect(bad({ ...ok, msg: { ...done, trail: { copies: 1, migrations: -2, replans: 0 } } })).toMatch(
      /job.completed.trail .migrations must be a non-negative integer/,
    );
    // A job's optional fields are checked as the job has them; any other field is refused.
    expect(bad({ ...ok, msg: { type: 'job.submit', job: { ...job, user: -1 } } })).toBe(
      'job.submit.job .user must be a non-negative integer',
    );
    expect(bad({ ...ok, msg: { type: 'job.submit', job: { ...job, memory_mb: 'lots' } } })).toBe(
      'job.submit.job .memory_mb must be a finite number',
    );
    expect(bad({ ...ok, msg: { type: 'job.submit', job: { ...job, colour: 'red' } } })).toBe(
      'job.submit.job has an unexpected field "colour"',
    );
    expect(bad({ ...ok, msg: { ...done, trail: { copies: 1, migrations: 0, replans: 0, hops: 1 } } })).toBe(
      'job.completed.trail has an unexpected field "hops"',
    );
    // A name every object inherits is still not a field of the message.
    expect(bad({ ...ok, msg: { type: 'timer.job-ends', jobId: 'x', constructor: 1 } })).toBe(
      'timer.job-ends has an unexpected field "constructor"',
    );
    expect(bad({ ...ok, msg: { type: 'job.submit', job: { ...job, toString: 1 } } })).toBe(
      'job.submit.job has an unexpected field "toString"',
    );
    // The envelope's optional fields come back only when sent.
    const stamped = decodeEnvelope(encode({ ...ok, sent_ms: 1.5, at_s: 7, lseq: 2 }), 'r1');
    expect(stamped).toEqual({ ok: true, envelope: { ...ok, sent_ms: 1.5, at_s: 7, lseq: 2 } });
    // A link's number is a durable message's: positive and whole.
    expect(bad({ ...ok, lseq: 0 })).toMatch(/envelope.lseq/);
    expect(bad({ ...ok, lseq: 1.5 })).toMatch(/envelope.lseq/);
    expect(bad({ ...ok, lseq: '2' })).toMatch(/envelope.lseq/);
    const plain = decodeEnvelope(encode(ok), 'r1');
    expect(plain.ok && Object.keys(plain.envelope)).toEqual(['v', 'run', 'from', 'to', 'msg']);
    // An acknowledgement: a cumulative number, or the numbers received, each a link's.
    const ack = (fields: object) => ({ ...ok, msg: { type: 'bus.ack', boot: 'b1', ...fields } });
    expect(decodeEnvelope(encode(ack({ upto: 9 })), 'r1').ok).toBe(true);
    expect(decodeEnvelope(encode(ack({ received: [3, 4] })), 'r1').ok).toBe(true);
    expect(bad(ack({ upto: 0 }))).toMatch(/bus.ack.upto must be a positive integer/);
    // A journaled receiver's acknowledgement says what else arrived unstored, none at all included.
    expect(decodeEnvelope(encode(ack({ upto: 9, received: [] })), 'r1').ok).toBe(true);
    expect(bad(ack({ received: [0] }))).toMatch(/bus.ack.received must be a list of positive integers/);
    expect(bad(ack({ received: ['x-1'] }))).toMatch(/bus.ack.received must be a list of positive integers/);
    expect(bad(ack({ mids: ['x-1'] }))).toMatch(/unexpected field "mids"/);
    expect(bad({ ...ok, at_s: 'soon' })).toMatch(/envelope.at_s/);
    expect(bad({ ...ok, from: '' })).toMatch(/envelope.from/);
    expect(bad({ ...ok, to: 3 })).toMatch(/envelope.to must be a non-empty string/);
    expect(bad([1, 2, 3])).toMatch(/envelope is not a map/);
    const huge = new Uint8Array(MAX_MESSAGE_BYTES + 1);
    expect(decodeEnvelope(huge)).toEqual({
      ok: false,
      reason: `payload of ${MAX_MESSAGE_BYTES + 1} bytes is over the ${MAX_MESSAGE_BYTES}-byte limit`,
    });
  });

  it('never throws on random bytes or random values (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        const d = decodeEnvelope(bytes);
        expect(d.ok).toBe(false);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.anything(), (value) => {
        let bytes: Uint8Array;
        try {
          bytes = encode(value);
        } catch {
          return; // not encodable by msgpack: nothing to send
        }
        expect(decodeEnvelope(bytes).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.record({
          type: fc.constantFrom(...Object.values(MessageType)),
          jobId: fc.anything(),
          claimId: fc.anything(),
          job: fc.anything(),
        }),
        (msg) => {
          // A known type with arbitrary fields: decoding says yes or no, but never throws.
          decodeEnvelope(encode({ v: PROTOCOL_VERSION, run: 'r', from: 'a', to: 'b', msg }));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
