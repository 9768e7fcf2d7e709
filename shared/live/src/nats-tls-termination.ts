import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, createSecureContext, TLSSocket } from 'node:tls';

/** What a proxy needs to end a NATS client's TLS and open its own to the server (PEM text). */
export interface ProxyTls {
  /** The CA the server's certificate is checked against. */
  readonly ca: string;
  /** The certificate and key the proxy shows its client: the server's own (gridemu run --tls). */
  readonly cert: string;
  readonly key: string;
}

/**
 * Ends a NATS client's TLS at a proxy and opens a TLS connection of the proxy's own to the server,
 * so the proxy reads the protocol in between. NATS starts in plain text: the server's first line
 * (INFO, saying `tls_required`) is passed to the client as it is, and then each side starts TLS,
 * the client with the proxy and the proxy with the server. Resolves with the two encrypted sockets
 * once both handshakes are done; rejects (both sockets destroyed) if either fails or the server
 * says more than its INFO before TLS.
 */
export function terminateNatsTls(
  client: Socket,
  upstream: Socket,
  tls: ProxyTls,
  target: { readonly host: string },
): Promise<{ client: TLSSocket; upstream: TLSSocket }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      client.destroy();
      upstream.destroy();
      if (!settled) reject(err);
      settled = true;
    };
    let head = Buffer.alloc(0);
    const onInfo = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const eol = head.indexOf('\r\n');
      if (eol < 0) {
        if (head.length > 64 * 1024) fail(new Error('the server sent no INFO line'));
        return;
      }
      upstream.off('data', onInfo);
      if (eol + 2 !== head.length) return fail(new Error('the server said more than its INFO before TLS'));
      if (!head.subarray(0, 5).toString('latin1').toUpperCase().startsWith('INFO'))
        return fail(new Error('the server did not start with INFO'));
      client.write(head);
      let pending = 2;
      const done = () => {
        if (--pending > 0 || settled) return;
        settled = true;
        resolve({ client: secureClient, upstream: secureUpstream });
      };
      const secureClient = new TLSSocket(client, {
        isServer: true,
        secureContext: createSecureContext({ cert: tls.cert, key: tls.key }),
      });
      secureClient.once('secure', done);
      secureClient.once('error', fail);
      const secureUpstream = tlsConnect({
        socket: upstream,
        ca: tls.ca,
        host: target.host,
        // SNI takes a name, not an address; the certificate is checked against `host` either way.
        ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
      });
      secureUpstream.once('secureConnect', done);
      secureUpstream.once('error', fail);
    };
    upstream.on('data', onInfo);
    upstream.once('error', fail);
    client.once('error', fail);
    // Either side gone before both handshakes are done: nothing is left to carry.
    const gone = () => settled || fail(new Error('a side closed before TLS was set up'));
    upstream.once('close', gone);
    client.once('close', gone);
  });
}
