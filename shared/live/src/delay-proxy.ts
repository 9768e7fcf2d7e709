import { createServer, connect, type Server, type Socket } from 'node:net';
import type { ExperimentSpec, NetworkSpec } from '@gridemu/model';
import { DURABLE_MESSAGES } from '@gridemu/schemes';
import { DRIVER } from '@gridemu/protocol';
import { decodeEnvelope } from '@gridemu/protocol/wire';
import {
  healOf,
  LinkModel,
  locationPartitions,
  partitionsAt,
  Rng,
  siteOf,
  type LocationPartition,
} from '@gridemu/runtime';
import { wallNow_ms, type EmulatedClock } from '@gridemu/runtime/live';
import { encodeBatch, parseSubject, splitBatch } from '@gridemu/transport-nats';
import { NatsFrameSplitter } from './nats-frames.js';
import { DueQueues } from './due-queues.js';
import { terminateNatsTls, type ProxyTls } from './nats-tls-termination.js';

export interface DelayProxyOptions {
  /** The location (site id or `central`) whose connection this proxy carries. */
  readonly from: string;
  readonly run: string;
  readonly network: NetworkSpec;
  /** The nats-server to forward to. */
  readonly target: { readonly host: string; readonly port: number };
  readonly seed: number;
  /** The spec's partitions and message loss, applied here once the run's clock starts. */
  readonly faults?: ProxyFaults;
  /** The server takes TLS only: the proxy ends its client's TLS and opens its own to the server. */
  readonly tls?: ProxyTls;
}

export interface ProxyFaults {
  readonly partitions: readonly LocationPartition[];
  readonly dropRate: number;
  /** Message types never dropped (DURABLE_MESSAGES). */
  readonly durable: ReadonlySet<string>;
}

/**
 * A TCP proxy on one location's connection to nats-server that applies the spec's link latency on
 * the way out (kernel netem is missing here; DESIGN.md, "Real parts"). It reads the NATS protocol so
 * each publish to another location's actor waits that link's latency plus jitter; everything else
 * (subscriptions, pings, control messages, messages to the driver, which sits next to every site as
 * in SimRuntime) passes at once. Delaying only the sender's side gives each ordered pair of
 * locations its own latency, so a `network.matrix` works too. Like TCP, a link never reorders: a
 * message leaves no earlier than the one before it on the same link. Over TLS (`gridemu run
 * --tls`) it ends each side's TLS to read the protocol (nats-tls-termination.ts): the bytes are
 * plain only inside this process, which holds the server's key anyway.
 */
export class DelayProxy {
  private server: Server | undefined;
  private readonly links: LinkModel;
  private readonly rng: Rng;
  private readonly sockets = new Set<Socket>();
  private readonly faultRng: Rng;
  /** Loss of topic messages coming in: drawn here, per receiving location (see inboundFate). */
  private readonly inboundFaultRng: Rng;
  private clock: EmulatedClock | undefined;
  /** Messages this proxy dropped (faults.drop; topic messages as they come in) and held back by a partition. */
  readonly faultCounts = { dropped: 0, held: 0 };

  constructor(private readonly options: DelayProxyOptions) {
    this.links = new LinkModel(options.network);
    this.rng = new Rng(options.seed).fork(`proxy/${options.from}`);
    this.faultRng = new Rng(options.seed).fork(`proxy-faults/${options.from}`);
    this.inboundFaultRng = new Rng(options.seed).fork(`proxy-faults-in/${options.from}`);
  }

  /**
   * Listens on `host:port` (by default a free loopback port, as `gridemu run` wants; a sidecar
   * listens on its container's address); returns the URL to give the location's process.
   */
  async listen(host = '127.0.0.1', port = 0): Promise<string> {
    const server = createServer((client) => this.carry(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const addr = server.address();
    if (typeof addr !== 'object' || addr === null) throw new Error('delay proxy has no address');
    return `nats://${host}:${addr.port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The run's clock, from its `start` message: faults are timed in emulated seconds. */
  startClock(clock: EmulatedClock): void {
    this.clock = clock;
  }

  /**
   * What faults do to a publish on `link` now: its losable messages dropped, each with the spec's
   * chance (the frame left, or undefined if nothing of it is), and the rest held until a partition
   * between this location and the link's end heals (`hold_ms`, extra wall milliseconds to wait).
   * A topic publish is not lost here: it is lost at each receiving location's proxy
   * (inboundFate), one draw per receiver, as the simulator loses a topic message.
   */
  private fault(frame: Buffer, link: string): { frame: Buffer | undefined; hold_ms: number } {
    const faults = this.options.faults;
    if (!faults || !this.clock) return { frame, hold_ms: 0 };
    const losable = faults.dropRate > 0 && link !== 'topic';
    const left = losable ? this.lose(frame, faults.dropRate, faults.durable, this.faultRng) : frame;
    if (left === undefined) return { frame: undefined, hold_ms: 0 };
    return { frame: left, hold_ms: this.heldAcross(this.clock, faults.partitions, this.options.from, link) };
  }

  /** Wall ms a message from `a` to `b` waits now for a partition between them to heal (0: none), counted if held. */
  private heldAcross(clock: EmulatedClock, partitions: readonly LocationPartition[], a: string, b: string): number {
    const heal_s = healOf(partitionsAt(partitions, clock.now_s()), a, b);
    if (heal_s === undefined) return 0;
    this.faultCounts.held++;
    return Math.max(0, clock.wall_ms(heal_s) - wallNow_ms());
  }

  /**
   * A PUB (or MSG) frame with each losable message in it lost with chance `rate`, one by one, as the
   * simulator loses each message: a batch of several (NatsTransport) is rewritten with the ones
   * left; undefined if none is. A durable message is never lost (read from its envelope; a
   * scheme's own messages are read too, their shapes checked by the receiver). Deciding for the
   * whole frame, as this did before, never lost a losable message that shared its batch with a
   * durable one, and lost the others a batch at a time.
   */
  private lose(frame: Buffer, rate: number, durable: ReadonlySet<string>, rng: Rng): Buffer | undefined {
    const eol = frame.indexOf('\r\n');
    const line = frame.toString('latin1', 0, eol).trim().split(/\s+/);
    // HPUB and HMSG (headers) are not what NatsTransport sends: such a frame is one message.
    const payload = frame.subarray(eol + 2, frame.length - 2);
    const op = line[0]?.toUpperCase();
    const batch = op === 'PUB' || op === 'MSG' ? splitBatch(payload) : undefined;
    const messages = batch ?? [payload];
    const kept = messages.filter((bytes) => {
      const decoded = decodeEnvelope(bytes, undefined, () => undefined);
      if (decoded.ok && durable.has(decoded.envelope.msg.type)) return true;
      if (rng.next() >= rate) return true;
      this.faultCounts.dropped++;
      return false;
    });
    if (kept.length === messages.length) return frame;
    if (kept.length === 0) return undefined;
    // `PUB <subject> [reply] <#bytes>` or `MSG <subject> <sid> [reply] <#bytes>`: the same, the new size.
    const rebuilt = encodeBatch(kept);
    const header = `${line.slice(0, -1).join(' ')} ${rebuilt.byteLength}\r\n`;
    return Buffer.concat([Buffer.from(header, 'latin1'), rebuilt, Buffer.from('\r\n', 'latin1')]);
  }

  /** Wall milliseconds a publish on `subject` waits here (0 for anything not addressed to another location). */
  delayOf(subject: string | undefined): { link: string; ms: number } | undefined {
    const parsed = subject === undefined ? undefined : parseSubject(this.options.run, subject);
    if (parsed === undefined) return undefined;
    if ('topic' in parsed.target) {
      // A topic message is one publish for every subscriber, so it waits once, the spec's default
      // link latency plus jitter (a matrix's per-link figures are not applied to topics live).
      return { link: 'topic', ms: this.links.delay_s(this.options.from, 'topic', this.rng) * 1000 };
    }
    const to = siteOf(parsed.target.actor);
    if (to === undefined || to === this.options.from) return undefined;
    return { link: to, ms: this.links.delay_s(this.options.from, to, this.rng) * 1000 };
  }

  private carry(raw: Socket): void {
    const rawUpstream = connect(this.options.target.port, this.options.target.host);
    this.sockets.add(raw).add(rawUpstream);
    raw.setNoDelay(true);
    rawUpstream.setNoDelay(true);
    const tls = this.options.tls;
    if (!tls) return this.relay(raw, rawUpstream);
    terminateNatsTls(raw, rawUpstream, tls, this.options.target).then(
      ({ client, upstream }) => {
        // Destroying the encrypted sockets destroys the plain ones under them.
        client.once('close', () => {
          this.sockets.delete(raw);
          this.sockets.delete(rawUpstream);
        });
        this.relay(client, upstream);
      },
      // The client, or the server, did not complete TLS: both sockets are closed, as a refused handshake would be.
      () => {
        this.sockets.delete(raw);
        this.sockets.delete(rawUpstream);
      },
    );
  }

  /**
   * Carries one connection's traffic: the client's publishes to other locations wait their link's
   * latency; with partitions, topic messages coming in from a location cut off from this one wait
   * for the cut to heal, and with loss each is lost here with the spec's chance (inboundFate).
   */
  private relay(client: Socket, upstream: Socket): void {
    const splitter = new NatsFrameSplitter();
    const outbound = new DueQueues((bytes) => upstream.write(bytes));
    const inbound = new DueQueues((bytes) => client.write(bytes));
    const close = () => {
      outbound.clear();
      inbound.clear();
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = splitter.push(chunk);
      } catch {
        close(); // not NATS: a real network would not fix it either
        return;
      }
      const now = performance.now();
      for (const f of frames) {
        const delay = this.delayOf(f.subject);
        if (!delay) {
          upstream.write(f.bytes);
          continue;
        }
        const fate = this.fault(f.bytes, delay.link);
        if (fate.frame === undefined) continue;
        outbound.push(delay.link, delay.ms + fate.hold_ms, fate.frame, now);
      }
    });
    const faults = this.options.faults;
    if (!faults || (faults.partitions.length === 0 && faults.dropRate === 0))
      upstream.on('data', (chunk: Buffer) => client.write(chunk));
    else {
      // Only a run with partitions or loss reads what the server sends: every other run's passes untouched.
      const fromServer = new NatsFrameSplitter();
      upstream.on('data', (chunk: Buffer) => {
        let frames;
        try {
          frames = fromServer.push(chunk);
        } catch {
          close();
          return;
        }
        const now = performance.now();
        for (const f of frames) {
          const fate = this.inboundFate(f.bytes, f.subject);
          if (fate === undefined) client.write(f.bytes);
          else if (fate.frame === undefined) continue;
          else if (fate.hold_ms === 0 && !inbound.waiting(fate.sender)) client.write(fate.frame);
          else inbound.push(fate.sender, fate.hold_ms, fate.frame, now);
        }
      });
    }
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  }

  /**
   * What faults do to a message the server brings this location on `subject`: its sender, the
   * frame left (undefined if all of it is lost) and how many wall ms it waits here; undefined for
   * anything that is not a run's message. A topic message is one publish for every subscriber, so
   * what the simulator does to it for each receiver is done here, at the receiving end:
   * - loss: each losable message of it is lost with the spec's chance, drawn by this location
   *   alone, so one gossip round is lost for some receivers and not others, as simulated (the
   *   simulator draws per receiving actor; a location's actors share one subscription here);
   * - partitions: its sender's proxy holds it only when the sender is inside a cut-off set; one
   *   from outside such a set into it is held here until the cut heals, on arrival, as simulated.
   * Messages to one actor are lost and held by their sender's proxy (fault); the driver, next to
   * every site, is never cut off and loses nothing, and nor does a location's own topic message.
   */
  private inboundFate(
    frame: Buffer,
    subject: string | undefined,
  ): { sender: string; frame: Buffer | undefined; hold_ms: number } | undefined {
    const parsed = subject === undefined ? undefined : parseSubject(this.options.run, subject);
    if (parsed === undefined) return undefined;
    const sender = parsed.sender;
    const faults = this.options.faults;
    if (!faults || !this.clock || !('topic' in parsed.target) || sender === DRIVER || sender === this.options.from)
      return { sender, frame, hold_ms: 0 };
    const left = faults.dropRate > 0 ? this.lose(frame, faults.dropRate, faults.durable, this.inboundFaultRng) : frame;
    if (left === undefined) return { sender, frame: undefined, hold_ms: 0 };
    return { sender, frame: left, hold_ms: this.heldAcross(this.clock, faults.partitions, sender, this.options.from) };
  }
}

/** The first server of a NATS URL list (`nats://h:p,…`) as the host and port a delay proxy forwards to. */
export function proxyTarget(natsUrl: string): { readonly host: string; readonly port: number } {
  const url = new URL(natsUrl.split(',')[0]!.replace(/^nats:/, 'http:'));
  return { host: url.hostname, port: Number(url.port || 4222) };
}

/** Whether `spec` needs a delay proxy per location: link latency, partitions or message loss. */
export function needsDelayProxies(spec: ExperimentSpec): boolean {
  const n = spec.network;
  const latency =
    n.latency_ms > 0 ||
    n.jitter_ms > 0 ||
    Object.values(n.matrix ?? {}).some((row) => Object.values(row).some((v) => v > 0));
  return latency || spec.faults.partition.length > 0 || spec.faults.drop > 0;
}

/** The delay proxy of location `from` for `spec`: its links' latency, and its partitions and loss if the spec has any. */
export function delayProxyFor(
  spec: ExperimentSpec,
  from: string,
  run: string,
  target: { readonly host: string; readonly port: number },
  tls?: ProxyTls,
): DelayProxy {
  const faults = spec.faults;
  const withFaults = faults.partition.length > 0 || faults.drop > 0;
  const partitions = locationPartitions(faults.partition);
  return new DelayProxy({
    from,
    run,
    network: spec.network,
    target,
    seed: spec.seed,
    ...(withFaults ? { faults: { partitions, dropRate: faults.drop, durable: DURABLE_MESSAGES } } : {}),
    ...(tls ? { tls } : {}),
  });
}
