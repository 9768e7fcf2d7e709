/** A NATS server URL with the credentials it carried taken out. */
export interface NatsUrlCredentials {
  /** The URL (or comma-separated URLs) without user information: what may be shown and passed on. */
  readonly url: string;
  readonly user?: string;
  readonly password?: string;
  readonly token?: string;
}

/**
 * Takes the credentials out of a server URL written as NATS tools take it,
 * `nats://USER:PASSWORD@host:port` or `nats://TOKEN@host:port` (percent-encoded where needed). The
 * client library does not read them there, and a URL holding a password must not be printed or
 * put in a process's arguments, which `ps` shows: the processes get them in their environment.
 * A URL it cannot parse is given back as it is, to fail where it is used.
 */
export function splitNatsUrlCredentials(natsUrl: string): NatsUrlCredentials {
  let found: Omit<NatsUrlCredentials, 'url'> = {};
  const urls = natsUrl.split(',').map((one) => {
    const at = one.lastIndexOf('@');
    const scheme = one.indexOf('://');
    if (at < 0 || scheme < 0 || at < scheme) return one;
    const info = one.slice(scheme + 3, at);
    const colon = info.indexOf(':');
    let credentials: Omit<NatsUrlCredentials, 'url'>;
    try {
      credentials =
        colon < 0
          ? { token: decodeURIComponent(info) }
          : { user: decodeURIComponent(info.slice(0, colon)), password: decodeURIComponent(info.slice(colon + 1)) };
    } catch {
      return one;
    }
    if (found.user === undefined && found.token === undefined) found = credentials;
    return one.slice(0, scheme + 3) + one.slice(at + 1);
  });
  return { url: urls.join(','), ...found };
}

/** How a URL's credentials are named where they are shown: the user, never the password. */
export function describeNatsCredentials(c: Omit<NatsUrlCredentials, 'url'>): string {
  return c.user !== undefined ? `as user ${c.user}` : c.token !== undefined ? 'with a token' : 'without credentials';
}

/** A server URL as it may be logged or printed: without the credentials it may carry. */
export function shownNatsUrl(natsUrl: string): string {
  return splitNatsUrlCredentials(natsUrl).url;
}
