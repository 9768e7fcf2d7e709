import { DelayProxy, delayProxyFor, needsDelayProxies, proxyTarget, type ProxyTls } from '@gridemu/live';
import type { ExperimentSpec } from '@gridemu/model';
import type { RunClockWatch } from './run-clock.js';

/**
 * A delay proxy per location, between its process and the server: the spec's link latency,
 * partitions and loss happen on the wire here. Faults are timed in emulated seconds, so each proxy
 * takes the run's clock when the driver starts it.
 */
export class ProxySet {
  private readonly proxies: DelayProxy[] = [];
  /** The URL each location's process connects to (its proxy's), when the spec needs proxies. */
  private readonly urls = new Map<string, string>();

  private constructor() {}

  static async open(
    spec: ExperimentSpec,
    run: string,
    serverUrl: string,
    members: readonly string[],
    clock: RunClockWatch,
    /** The server takes TLS only (--tls): each proxy ends its process's TLS and opens its own. */
    tls?: ProxyTls,
  ) {
    const set = new ProxySet();
    if (!needsDelayProxies(spec)) return set;
    const target = proxyTarget(serverUrl);
    for (const m of members) {
      const proxy = delayProxyFor(spec, m, run, target, tls);
      set.proxies.push(proxy);
      set.urls.set(m, await proxy.listen());
    }
    clock.onStart((c) => {
      for (const p of set.proxies) p.startClock(c);
    });
    return set;
  }

  get active(): boolean {
    return this.proxies.length > 0;
  }

  urlOf(member: string): string | undefined {
    return this.urls.get(member);
  }

  /** Messages the proxies dropped (faults.drop) and held across a partition, so far. */
  faultCounts(): { dropped: number; held: number } {
    return {
      dropped: this.proxies.reduce((n, p) => n + p.faultCounts.dropped, 0),
      held: this.proxies.reduce((n, p) => n + p.faultCounts.held, 0),
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.proxies.map((p) => p.close()));
  }
}
