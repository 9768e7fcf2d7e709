import { describe, expect, it } from 'vitest';
import { natsConnectOptions } from '../src/nats-flags.js';
import { describeNatsCredentials, shownNatsUrl, splitNatsUrlCredentials } from '../src/nats-url-credentials.js';

describe('credentials in a NATS URL', () => {
  it('takes a user and password, or a token, out of the URL, decoding what was percent-encoded', () => {
    expect(splitNatsUrlCredentials('nats://alice:s3cret@10.0.0.5:4222')).toEqual({
      url: 'nats://10.0.0.5:4222',
      user: 'alice',
      password: 's3cret',
    });
    expect(splitNatsUrlCredentials('tls://T0KEN@nats.lab:4443')).toEqual({
      url: 'tls://nats.lab:4443',
      token: 'T0KEN',
    });
    expect(splitNatsUrlCredentials('nats://bob:p%40ss%3Aword@h:1')).toEqual({
      url: 'nats://h:1',
      user: 'bob',
      password: 'p@ss:word',
    });
    // A list of servers: each loses its credentials, the first given are used.
    expect(splitNatsUrlCredentials('nats://a:1@h1:4222,nats://b:2@h2:4222')).toEqual({
      url: 'nats://h1:4222,nats://h2:4222',
      user: 'a',
      password: '1',
    });
  });

  it('gives a URL without credentials, or one it cannot read, back as it is', () => {
    expect(splitNatsUrlCredentials('nats://127.0.0.1:4222')).toEqual({ url: 'nats://127.0.0.1:4222' });
    expect(splitNatsUrlCredentials('127.0.0.1:4222')).toEqual({ url: '127.0.0.1:4222' });
    expect(splitNatsUrlCredentials('nats://bad%zz@h:1')).toEqual({ url: 'nats://bad%zz@h:1' });
  });

  it('names the user where they are shown, never the password', () => {
    expect(describeNatsCredentials({ user: 'alice', password: 's3cret' })).toBe('as user alice');
    expect(describeNatsCredentials({ token: 't' })).toBe('with a token');
    // What a process logs of the URL it was given (gridemu-site --nats nats://alice:s3cret@host).
    expect(shownNatsUrl('nats://alice:s3cret@10.0.0.5:4222')).toBe('nats://10.0.0.5:4222');
  });

  it("connects with the URL's credentials unless a user or token is given otherwise", () => {
    const fromUrl = natsConnectOptions({ nats: 'nats://alice:s3cret@h:4222', run: 'r1' }, 'n');
    expect(fromUrl).toMatchObject({ servers: 'nats://h:4222', user: 'alice', pass: 's3cret' });
    expect(fromUrl.inboxPrefix).toContain('alice');
    const flags = natsConnectOptions({ nats: 'nats://alice:s3cret@h:4222', user: 'carol', password: 'x' }, 'n');
    expect(flags).toMatchObject({ servers: 'nats://h:4222', user: 'carol', pass: 'x' });
    expect(natsConnectOptions({ nats: 'nats://tok@h:4222' }, 'n')).toMatchObject({
      servers: 'nats://h:4222',
      token: 'tok',
    });
    expect(natsConnectOptions({ nats: 'nats://h:4222' }, 'n')).not.toHaveProperty('user');
  });
});
