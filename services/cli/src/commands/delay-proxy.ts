import { readFileSync } from 'node:fs';
import { parseCommandArgs } from '../command-args.js';
import {
  connectFirst,
  ControlBus,
  delayProxyFor,
  liveLocations,
  natsConnectOptions,
  natsFlagOptions,
  needsDelayProxies,
  proxyTarget,
  shownNatsUrl,
} from '@gridemu/live';
import { UnavailableError } from '@gridemu/model';
import { loadExperiment } from '@gridemu/schemes';
import { checkRunId, withFields } from '@gridemu/runtime';
import { pinoLogger } from '@gridemu/runtime/live';
import { RunClockWatch } from '../live/run-clock.js';
import { EXIT_OK, UsageError } from '../exit-codes.js';

export const DELAY_PROXY_HELP = `Usage: gridemu delay-proxy SPEC --from LOCATION [--listen HOST:PORT] [--nats URL] [--run ID]

The delay proxy of one location, as a process of its own: a sidecar beside a site's container
where gridemu run is not the orchestrator (docker-compose on several hosts, Kubernetes). The
site connects to this proxy instead of its NATS server; the proxy holds each publish to another
location for that link's latency from SPEC (network.latency_ms, jitter_ms, matrix), and applies
SPEC's partitions and message loss once the run's clock starts (it hears the driver's start on
the run's control subject). It runs until stopped (SIGTERM or SIGINT). A NATS server not there
yet (starting beside it) is waited for 30 s, as a site waits; then it exits 1.

Options:
  --from LOCATION      the location whose connection this proxy carries (a site id, central, ...)
  --listen HOST:PORT   where the site connects (default 0.0.0.0:4222, env GRIDEMU_PROXY_LISTEN)
  --nats URL           the NATS server to forward to (default NATS_URL, nats://127.0.0.1:4222)
  --run ID             the run's id (default GRIDEMU_RUN): subjects are named by it
  --tls-cert FILE      the server takes TLS only: show the site this certificate (valid for the
  --tls-key FILE       name the site connects to) and key, end its TLS here to read the protocol,
                       and open TLS to the server trusting --tls-ca (all three needed; env
                       GRIDEMU_PROXY_TLS_CERT, GRIDEMU_PROXY_TLS_KEY, NATS_CA)`;

export async function delayProxyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('delay-proxy', {
    args: argv,
    allowPositionals: true,
    options: {
      ...natsFlagOptions(),
      from: { type: 'string' },
      listen: { type: 'string', default: process.env['GRIDEMU_PROXY_LISTEN'] ?? '0.0.0.0:4222' },
      'tls-cert': { type: 'string', default: process.env['GRIDEMU_PROXY_TLS_CERT'] },
      'tls-key': { type: 'string', default: process.env['GRIDEMU_PROXY_TLS_KEY'] },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(DELAY_PROXY_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`delay-proxy takes one experiment file\n\n${DELAY_PROXY_HELP}`);
  if (!values.from) throw new UsageError(`delay-proxy needs --from LOCATION\n\n${DELAY_PROXY_HELP}`);
  if (!values.run)
    throw new UsageError(
      `delay-proxy needs --run ID (or GRIDEMU_RUN): the subjects it delays are named by the run\n\n${DELAY_PROXY_HELP}`,
    );
  try {
    checkRunId(values.run);
  } catch (err) {
    throw new UsageError(`--run: ${(err as Error).message}`);
  }
  const listen = /^(.+):(\d+)$/.exec(values.listen);
  if (!listen || Number(listen[2]) > 65535)
    throw new UsageError(`--listen must be HOST:PORT with a port up to 65535, got "${values.listen}"`);
  const { spec } = loadExperiment(positionals[0]!);
  const locations = liveLocations(spec).map((l) => l.location);
  if (!locations.includes(values.from))
    throw new UsageError(`--from ${values.from}: not a location of ${positionals[0]} (${locations.join(', ')})`);
  const target = proxyTarget(values.nats);
  const tlsFiles = [values['tls-cert'], values['tls-key'], values['tls-ca']];
  if (tlsFiles.some((f) => f !== undefined) && !tlsFiles.every((f) => f !== undefined))
    throw new UsageError(
      `delay-proxy ends TLS with --tls-cert, --tls-key and --tls-ca together (the server's CA); got only ${['--tls-cert', '--tls-key', '--tls-ca'].filter((_, i) => tlsFiles[i] !== undefined).join(', ')}\n\n${DELAY_PROXY_HELP}`,
    );
  const read = (f: string, flag: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch (err) {
      throw new UsageError(`${flag}: cannot read ${f}: ${(err as Error).message}`);
    }
  };
  const tls =
    values['tls-cert'] !== undefined
      ? {
          cert: read(values['tls-cert'], '--tls-cert'),
          key: read(values['tls-key']!, '--tls-key'),
          ca: read(values['tls-ca']!, '--tls-ca'),
        }
      : undefined;

  const log = withFields(pinoLogger(values.run, { level: values['log-level'] }), { proxy: values.from });
  const proxy = delayProxyFor(spec, values.from, values.run, target, tls);
  let url: string;
  try {
    url = await proxy.listen(listen[1]!, Number(listen[2]));
  } catch (err) {
    // Taken, or not an address of this host: the machine's state, said in a line.
    throw new UnavailableError(`--listen ${values.listen}: ${(err as Error).message}`, { cause: err });
  }
  // The proxy's own connection hears the driver's start: partitions and loss are timed in emulated seconds.
  // As a site does: a server that is starting too (compose, a pod) is waited for a while.
  const first = await connectFirst(natsConnectOptions(values, `gridemu-${values.run}-proxy-${values.from}`));
  if ('error' in first) {
    await proxy.close();
    throw new UnavailableError(`delay-proxy: cannot connect to NATS at ${shownNatsUrl(values.nats)}: ${first.error}`);
  }
  const nc = first.nc;
  // It only listens (for the driver's start), and publishes nothing.
  const bus = new ControlBus(nc, values.run, log, `proxy-${values.from}`);
  const clock = new RunClockWatch(bus);
  clock.onStart((c) => {
    proxy.startClock(c);
    log.info({ epoch_s: c.epoch_s, speedup: c.speedup }, 'run started: faults are timed from now');
  });
  log.info(
    {
      listen: url,
      target: `${target.host}:${target.port}`,
      latency_ms: spec.network.latency_ms,
      jitter_ms: spec.network.jitter_ms,
    },
    needsDelayProxies(spec)
      ? 'delay proxy ready'
      : 'delay proxy ready (the spec has no latency, partition or loss: it forwards as it is)',
  );

  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  clock.stop();
  bus.close();
  await nc.close();
  await proxy.close();
  log.info(proxy.faultCounts, 'delay proxy stopped');
  return EXIT_OK;
}
