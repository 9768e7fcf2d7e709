import { join } from 'node:path';
import type { ControlBus, LiveProgress } from '@gridemu/live';
import type { FaultInjector } from './fault-injector.js';
import { orchestratorRegistry, serveMetrics } from './orchestrator-metrics.js';
import type { ProcessSupervisor } from './process-supervisor.js';
import {
  completedJobsQuery,
  SCRAPE_INTERVAL_S,
  ScrapeTargets,
  startPrometheus,
  type PrometheusServer,
} from './prometheus-server.js';
import type { ProxySet } from './proxy-set.js';
import type { RunClockWatch } from './run-clock.js';

/** With our Prometheus, the processes keep serving /metrics for a last scrape after the end. */
export function lingerEnv(prometheus: boolean): Record<string, string> {
  return prometheus ? { GRIDEMU_LINGER_MS: String(2500 * SCRAPE_INTERVAL_S) } : {};
}

export type LiveStatus =
  | { readonly phase: 'joining'; readonly ready: number; readonly expected: number }
  | ({ readonly phase: 'running'; readonly emulated_s: number } & LiveProgress);

/** What a run's watch saw: where its scrape configuration is, and, with our Prometheus, what it counted. */
export interface WatchResult {
  readonly config: string;
  readonly url?: string;
  readonly completedJobs?: number;
}

/**
 * What `gridemu run` watches and tells about a run: every process's /metrics in a scrape
 * configuration (and Debian's Prometheus on it, if asked), its own /metrics (the faults it
 * injected, the processes it restarted), the joining and progress for the progress line, and the
 * tally the driver asks for before it writes summary.json.
 */
export class RunWatch {
  private constructor(
    private readonly targets: ScrapeTargets,
    private readonly prometheus: PrometheusServer | undefined,
    private readonly ownMetrics: { close(): Promise<void> },
    private readonly run: string,
  ) {}

  static async start(o: {
    readonly run: string;
    readonly out: string;
    readonly scheme: string;
    readonly members: readonly string[];
    readonly bus: ControlBus;
    readonly clock: RunClockWatch;
    readonly faults: FaultInjector;
    readonly proxies: ProxySet;
    readonly processes: ProcessSupervisor;
    readonly prometheus: boolean;
    readonly onStatus?: (s: LiveStatus) => void;
    readonly say: (line: string) => void;
  }): Promise<RunWatch> {
    const { bus, faults, proxies, processes } = o;
    const targets = new ScrapeTargets(o.out, o.run);
    let prometheus: PrometheusServer | undefined;
    if (o.prometheus) {
      prometheus = await startPrometheus(targets.configFile, join(targets.dir, 'data'));
      o.say(`Prometheus at ${prometheus.url}, scraping every ${SCRAPE_INTERVAL_S} s (${targets.configFile})`);
    }
    const restarts = () => {
      const all = new Map<string, { planned: number; unplanned: number }>();
      for (const [m, n] of faults.restartsOf) all.set(m, { planned: n, unplanned: 0 });
      for (const [m, n] of processes.unplannedRestarts) all.set(m, { planned: all.get(m)?.planned ?? 0, unplanned: n });
      return all;
    };
    // This process's own: the faults it injects and the processes it restarts, which the victims cannot count.
    const ownMetrics = await serveMetrics(
      orchestratorRegistry({ run: o.run, scheme: o.scheme }, () => ({
        crashes: faults.crashesInjected,
        natsRestarts: faults.natsRestarts,
        proxy: proxies.faultCounts(),
        restarts: restarts(),
      })),
    );
    targets.set('orchestrator', ownMetrics.address);
    // The driver asks once, before it writes summary.json: the faults are its to report, with the rest.
    bus.on('tally', (_m, raw) => {
      const proxy = proxies.faultCounts();
      bus.reply(raw, {
        kind: 'tallied',
        tally: {
          counters: {
            'faults.crashes_applied': faults.crashesApplied,
            'faults.nats_restarts': faults.natsRestarts,
            'messages.dropped': proxy.dropped,
            'messages.held_by_partition': proxy.held,
            // What this process heard on the control plane from senders not allowed to send it.
            ...(bus.forged > 0 ? { 'control.forged_sender': bus.forged } : {}),
          },
          unplanned_restarts: Object.fromEntries(processes.unplannedRestarts),
        },
      });
    });
    const ready = new Set<string>();
    bus.on('ready', (m) => {
      targets.set(m.member, m.http);
      ready.add(m.member);
      o.onStatus?.({ phase: 'joining', ready: ready.size, expected: o.members.length });
    });
    bus.on('progress', (p) =>
      o.onStatus?.({
        phase: 'running',
        finished: p.finished,
        total: p.total,
        now_s: p.now_s,
        wall_s: p.wall_s,
        emulated_s: p.now_s - (o.clock.current?.epoch_s ?? p.now_s),
      }),
    );
    // The driver serves /metrics too, on a port it chooses and names on the bus ('serving'): one
    // chosen here and handed over could be taken by another process in between.
    bus.on('serving', (m) => targets.set(m.member, m.http));
    return new RunWatch(targets, prometheus, ownMetrics, o.run);
  }

  /** After the processes have left: what our Prometheus counted, if there is one. */
  async finish(say: (line: string) => void): Promise<WatchResult> {
    let completedJobs: number | undefined;
    if (this.prometheus)
      completedJobs = await this.prometheus.query(completedJobsQuery(this.run)).catch((err: unknown) => {
        say(`could not ask Prometheus: ${(err as Error).message}`);
        return undefined;
      });
    return {
      config: this.targets.configFile,
      ...(this.prometheus ? { url: this.prometheus.url } : {}),
      ...(completedJobs !== undefined ? { completedJobs } : {}),
    };
  }

  async close(): Promise<void> {
    await this.ownMetrics.close();
    await this.prometheus?.stop();
  }
}
