import { parseArgs } from 'node:util';
import { checkRunId, withFields } from '@gridemu/runtime';
import { pinoLogger } from '@gridemu/runtime/live';
import { connectFirst } from './first-connect.js';
import { startHealthServer } from './health-server.js';
import { MemberProcess, memberExitCode } from './member.js';
import { takeOverFrom } from './standby.js';
import { closeConnection } from './close-connection.js';
import { natsConnectOptions, natsFlagOptions, timerSpinOf } from './nats-flags.js';
import { shownNatsUrl } from './nats-url-credentials.js';

export interface MemberMainOptions {
  /** The command's name in help and errors. */
  readonly command: string;
  /**
   * The location this service hosts when not told (the central service: `central`); --member (or
   * --site for a site, GRIDEMU_MEMBER / GRIDEMU_SITE) names it.
   */
  readonly member?: string;
  /** What the process hosts, for its help (default: a grid site's actors). */
  readonly hosts?: string;
}

function help(o: MemberMainOptions): string {
  return `Usage: ${o.command} --run RUN${o.member ? '' : ' --site ID'} [--nats URL] [--http-port N] [options]

Hosts ${o.hosts ?? "the actors one grid site runs (its local scheduler, metascheduler and executor, or its scheme's)"} in a live run.
It asks the run's driver for the plan, says ready once subscribed, and runs until the driver ends
the run. SIGTERM or SIGINT drains the mailboxes and exits. Exits 0 when the run ended, the driver
aborted it or a signal stopped it; 2 on bad input; 1 when the process itself failed.

Options (each also from the environment):
  --nats URL         NATS server                       NATS_URL (default nats://127.0.0.1:4222)
  --user NAME        NATS user                         NATS_USER
  --password PASS    NATS password                     NATS_PASSWORD
  --token TOKEN      NATS token                        NATS_TOKEN
  --tls-ca FILE      connect over TLS, trusting this CA NATS_CA
  --run RUN          run id                            GRIDEMU_RUN${o.member ? `\n  --member NAME      the location hosted               GRIDEMU_MEMBER (default ${o.member})` : '\n  --site ID          site id                           GRIDEMU_SITE'}
  --http-port N      /healthz and /metrics; 0: any     GRIDEMU_HTTP_PORT (default 9464)
  --log-level L      pino level                        GRIDEMU_LOG_LEVEL (default info)
  --timer-spin-ms MS spin this long before a timer     GRIDEMU_TIMER_SPIN_MS (default 2; 0: never)
  --join-timeout S   give up if no driver answers      GRIDEMU_JOIN_TIMEOUT (default 120)
  --crashed-at S     a restart after a crash: when the  GRIDEMU_CRASHED_AT
                     previous process was killed, in emulated seconds (default:
                     the last delivery its journal holds)
  --resume-at S      a planned restart: it joins and    GRIDEMU_RESUME_AT
                     opens its journal at once, and rejoins when the run's clock
                     reaches S emulated seconds
  --standby          a successor started before a planned crash: it connects
                     and waits for one JSON line on standard input,
                     {"crashed_at_s": S, "resume_at_s": S}, then takes over as
                     --crashed-at and --resume-at would (exits 0 if input ends first)
  --journal-dir DIR  keep the journal in local files here GRIDEMU_JOURNAL_DIR (default: in
                     the server's JetStream, which survives this host; a local file
                     survives this process only, and keeps pace with the run: docs/faults.md)
  --linger-ms MS     keep serving /metrics this long     GRIDEMU_LINGER_MS (default 0)
                     after the run ends, for a last Prometheus scrape`;
}

/** The site and central processes' main: flags and environment, health endpoint, signals. Returns the exit code. */
export async function memberMain(argv: string[], o: MemberMainOptions): Promise<number> {
  const env = process.env;
  const { values } = parseArgs({
    args: argv,
    options: {
      ...natsFlagOptions(env),
      site: { type: 'string', default: env['GRIDEMU_SITE'] },
      member: { type: 'string', default: env['GRIDEMU_MEMBER'] },
      'http-port': { type: 'string', default: env['GRIDEMU_HTTP_PORT'] ?? '9464' },
      'join-timeout': { type: 'string', default: env['GRIDEMU_JOIN_TIMEOUT'] ?? '120' },
      'crashed-at': { type: 'string', default: env['GRIDEMU_CRASHED_AT'] },
      'resume-at': { type: 'string', default: env['GRIDEMU_RESUME_AT'] },
      standby: { type: 'boolean' },
      'linger-ms': { type: 'string', default: env['GRIDEMU_LINGER_MS'] ?? '0' },
      'journal-dir': { type: 'string', default: env['GRIDEMU_JOURNAL_DIR'] },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(help(o));
    return 0;
  }
  const fail = (message: string) => {
    console.error(`${o.command}: ${message}\n\n${help(o)}`);
    return 2;
  };
  if (!values.run) return fail('--run (or GRIDEMU_RUN) is required');
  try {
    checkRunId(values.run);
  } catch (err) {
    return fail((err as Error).message);
  }
  const member = values.member ?? values.site ?? o.member;
  if (!member) return fail('--site (or GRIDEMU_SITE) is required');
  const httpPort = Number(values['http-port']);
  if (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535)
    return fail(`--http-port must be a port number, got "${values['http-port']}"`);
  const joinTimeout_s = Number(values['join-timeout']);
  if (!(joinTimeout_s > 0))
    return fail(`--join-timeout must be a positive number of seconds, got "${values['join-timeout']}"`);
  const timerSpin_ms = timerSpinOf(values);
  if (typeof timerSpin_ms === 'string') return fail(timerSpin_ms);
  const crashedAt_s = values['crashed-at'] === undefined ? undefined : Number(values['crashed-at']);
  if (crashedAt_s !== undefined && !Number.isFinite(crashedAt_s))
    return fail(`--crashed-at must be emulated seconds, got "${values['crashed-at']}"`);
  const resumeAt_s = values['resume-at'] === undefined ? undefined : Number(values['resume-at']);
  if (resumeAt_s !== undefined && !Number.isFinite(resumeAt_s))
    return fail(`--resume-at must be emulated seconds, got "${values['resume-at']}"`);
  const linger_ms = Number(values['linger-ms']);
  if (!(linger_ms >= 0)) return fail(`--linger-ms must be milliseconds, got "${values['linger-ms']}"`);

  const log = withFields(pinoLogger(values.run, { level: values['log-level'] ?? 'info' }), { site: member });
  const options = { ...natsConnectOptions(values, `gridemu-${values.run}-${member}`), maxReconnectAttempts: -1 };
  const first = await connectFirst(options);
  if ('error' in first) {
    log.error({ nats: shownNatsUrl(values.nats), error: first.error }, 'cannot connect to NATS');
    return 1;
  }
  const nc = first.nc;
  const proc: { current?: MemberProcess } = {};
  const source = {
    get phase() {
      return proc.current?.phase ?? 'joining';
    },
    get runtime() {
      return proc.current?.runtime;
    },
    get scheme() {
      return proc.current?.spec?.meta.scheme;
    },
  };
  const health = await startHealthServer(httpPort, { run: values.run, site: member }, source);
  const member_ = new MemberProcess({
    nc,
    run: values.run,
    member,
    log,
    http: health.address,
    joinTimeout_s,
    timerSpin_ms,
    onHandled: health.observeHandler,
    onLatency: health.observeLatency,
    ...(crashedAt_s !== undefined ? { crashedAt_s } : {}),
    ...(resumeAt_s !== undefined ? { resumeAt_s } : {}),
    ...(values.standby ? { standby: takeOverFrom(process.stdin) } : {}),
    ...(values['journal-dir'] ? { journalDir: values['journal-dir'] } : {}),
  });
  // The NATS round trip, every few seconds, for /metrics (a ping the client answers itself).
  const rtt = setInterval(
    () =>
      void nc.rtt().then(
        (ms) => health.setNatsRoundTrip(ms / 1000),
        () => undefined,
      ),
    5000,
  );
  rtt.unref();
  proc.current = member_;
  // Handled for good, not once: a process started through `setpriv --pdeathsig` (gridemu run's
  // members) is sent its signal again each time the kernel hands it to another thread of its dead
  // parent, and a second SIGTERM left to its default would kill it before it has written its log.
  let signalled = false;
  const onSignal = (signal: string) => {
    if (signalled) return;
    signalled = true;
    log.info({ signal }, 'draining and exiting');
    void member_.stop();
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  log.info({ nats: shownNatsUrl(values.nats), http: health.address, pid: process.pid }, 'member process up');
  const outcome = await member_.run();
  // A standby's open standard input would keep this process alive after the run.
  if (values.standby) process.stdin.destroy();
  if (outcome.phase === 'done' && linger_ms > 0) await new Promise((r) => setTimeout(r, linger_ms));
  log.info({ phase: outcome.phase, reason: outcome.reason }, 'member process exiting');
  await closeConnection(nc);
  clearInterval(rtt);
  await health.close();
  return memberExitCode(outcome);
}
