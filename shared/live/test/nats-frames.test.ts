import { describe, expect, it } from 'vitest';
import { NatsFrameSplitter } from '../src/index.js';

const stream = Buffer.from(
  'CONNECT {"verbose":false}\r\nSUB gridemu.r.a.meta 1\r\nPUB gridemu.r.b.meta 5\r\nhe\r\no\r\nHPUB gridemu.r.c.x _INBOX.1 12 14\r\nNATS/1.0\r\n\r\nhi\r\nPING\r\n',
);

describe('NatsFrameSplitter', () => {
  it('splits a client stream into whole operations, payloads with CRLF inside included', () => {
    const frames = new NatsFrameSplitter().push(stream);
    expect(frames.map((f) => f.subject)).toEqual([
      undefined,
      undefined,
      'gridemu.r.b.meta',
      'gridemu.r.c.x',
      undefined,
    ]);
    expect(Buffer.concat(frames.map((f) => f.bytes)).equals(stream)).toBe(true);
    expect(frames[2]!.bytes.toString()).toBe('PUB gridemu.r.b.meta 5\r\nhe\r\no\r\n');
  });

  it('gives the same operations whatever the chunking', () => {
    for (let cut = 1; cut < stream.length; cut += 3) {
      const s = new NatsFrameSplitter();
      const frames = [...s.push(stream.subarray(0, cut)), ...s.push(stream.subarray(cut))];
      expect(Buffer.concat(frames.map((f) => f.bytes)).equals(stream)).toBe(true);
      expect(frames).toHaveLength(5);
    }
    const s = new NatsFrameSplitter();
    const oneByOne = [...stream].flatMap((b) => s.push(Buffer.from([b])));
    expect(oneByOne.map((f) => f.subject)).toEqual([
      undefined,
      undefined,
      'gridemu.r.b.meta',
      'gridemu.r.c.x',
      undefined,
    ]);
  });

  it("splits the server's stream too: messages, headers ones included, and one-line operations", () => {
    const fromServer = Buffer.from(
      'INFO {"server_id":"x"}\r\nMSG gridemu.r.topic.load.s1 3 5\r\nhe\r\no\r\nHMSG gridemu.r.a.x 4 _INBOX.1 12 14\r\nNATS/1.0\r\n\r\nhi\r\nPING\r\n+OK\r\n',
    );
    for (let cut = 1; cut < fromServer.length; cut += 5) {
      const s = new NatsFrameSplitter();
      const frames = [...s.push(fromServer.subarray(0, cut)), ...s.push(fromServer.subarray(cut))];
      expect(frames.map((f) => f.subject)).toEqual([
        undefined,
        'gridemu.r.topic.load.s1',
        'gridemu.r.a.x',
        undefined,
        undefined,
      ]);
      expect(Buffer.concat(frames.map((f) => f.bytes)).equals(fromServer)).toBe(true);
    }
    expect(() => new NatsFrameSplitter().push(Buffer.from('MSG x 5\r\n'))).toThrow(/malformed NATS message/);
  });

  it('refuses a stream that is not NATS', () => {
    expect(() => new NatsFrameSplitter().push(Buffer.from('PUB x notanumber\r\n'))).toThrow(/malformed NATS publish/);
    expect(() => new NatsFrameSplitter().push(Buffer.alloc(70 * 1024, 65))).toThrow(/control line/);
  });
});
