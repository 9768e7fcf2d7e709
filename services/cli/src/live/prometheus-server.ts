import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diesWithParent, freePort, programOnPath, stopProcess } from '@gridemu/nats-server';

export const PROMETHEUS_HINT =
  'prometheus is not on PATH: install it with `apt-get install -y prometheus` (Debian), or point your own Prometheus at DIR/prometheus/prometheus.yml';

/** How often the run's processes are scraped; members serve /metrics this long and more after the end. */
export const SCRAPE_INTERVAL_S = 1;

/**
 * The scrape configuration `gridemu run` writes into DIR/prometheus: one job, its
 * targets found through a file (file_sd) that the run rewrites as processes start, restart and
 * say where their /metrics is. An external Prometheus can use it as it is.
 */
export class ScrapeTargets {
  readonly dir: string;
  readonly configFile: string;
  private readonly targetsFile: string;
  private readonly byProcess = new Map<string, string>();

  constructor(
    out: string,
    private readonly run: string,
  ) {
    this.dir = join(out, 'prometheus');
    mkdirSync(this.dir, { recursive: true });
    this.configFile = join(this.dir, 'prometheus.yml');
    this.targetsFile = join(this.dir, 'targets.json');
    writeFileSync(
      this.configFile,
      [
        `# gridemu run ${run}: every process's /metrics, found through targets.json as the processes start.`,
        'global:',
        `  scrape_interval: ${SCRAPE_INTERVAL_S}s`,
        `  evaluation_interval: ${SCRAPE_INTERVAL_S}s`,
        'scrape_configs:',
        '  - job_name: gridemu',
        '    file_sd_configs:',
        '      - files: [targets.json]',
        '        refresh_interval: 1s',
        '',
      ].join('\n'),
    );
    this.write();
  }

  /** `process` (a location) now serves /metrics at `address` (host:port); a restarted one replaces its predecessor. */
  set(process: string, address: string): void {
    if (address === '' || this.byProcess.get(process) === address) return;
    this.byProcess.set(process, address);
    this.write();
  }

  private write(): void {
    const groups = [...this.byProcess].map(([process, address]) => ({
      targets: [address],
      labels: { process, gridemu_run: this.run },
    }));
    // Written whole, then renamed: Prometheus never reads half a file.
    const tmp = `${this.targetsFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(groups, null, 2) + '\n');
    renameSync(tmp, this.targetsFile);
  }
}

export interface PrometheusServer {
  readonly url: string;
  /** Runs an instant PromQL query; its single value, or undefined if it has none. */
  query(promql: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

export function prometheusBinary(): string | undefined {
  return programOnPath('prometheus');
}

/** Starts Prometheus from PATH on a free loopback port with `configFile`, its data in `dataDir`; resolves once it is ready. */
export async function startPrometheus(configFile: string, dataDir: string): Promise<PrometheusServer> {
  const binary = prometheusBinary();
  if (!binary) throw new Error(PROMETHEUS_HINT);
  const port = await freePort();
  // Not left running, holding its port and data, by a gridemu run that is killed outright.
  const started = diesWithParent(binary, [
    `--config.file=${configFile}`,
    `--storage.tsdb.path=${dataDir}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ]);
  const child: ChildProcess = spawn(started.command, started.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with code ${child.exitCode}:\n${stderr}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`prometheus was not ready on ${url} within 20 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    query: (promql) => queryPrometheus(url, promql),
    stop: () => stopProcess(child),
  };
}

/** An instant query through Prometheus' HTTP API: the first sample's value, or undefined for an empty result. */
export async function queryPrometheus(url: string, promql: string): Promise<number | undefined> {
  const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as {
    status: string;
    error?: string;
    data?: { result?: { value: [number, string] }[] };
  };
  if (body.status !== 'success') throw new Error(`prometheus refused ${promql}: ${body.error ?? res.status}`);
  const first = body.data?.result?.[0];
  return first ? Number(first.value[1]) : undefined;
}

/**
 * The jobs Prometheus saw completed in run `run`: each site's counter at its highest, added up. A
 * restarted process counts again from its journal, so its highest value covers its predecessor's.
 */
export function completedJobsQuery(run: string): string {
  return `sum(max by (site) (max_over_time(gridemu_jobs_completed_total{run="${run}"}[1d])))`;
}
