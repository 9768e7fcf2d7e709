import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { freePort, natsServerBinary, startLocalNatsServer } from '@gridemu/testkit';
import { JetStreamJournal } from '../src/index.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
type LocalNatsServer = Awaited<ReturnType<typeof startLocalNatsServer>>;

/**
 * Runs `body` against a nats-server whose store outlives its restart, as a run's does: `restart`
 * starts it again on the same port and store once the test has stopped or killed `server`.
 */
async function withRestartableServer(
  body: (s: { server: LocalNatsServer; nc: NatsConnection; restart: () => Promise<void> }) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gridemu-js-'));
  const server = await startLocalNatsServer({ dir });
  const nc = await connect({ servers: server.url, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
  let again: LocalNatsServer | undefined;
  try {
    await body({
      server,
      nc,
      restart: async () => void (again = await startLocalNatsServer({ dir, port: server.port })),
    });
  } finally {
    await nc.close();
    // The first server too: a test that fails before stopping it must not leave it running.
    await server.stop();
    await again?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Follows `promise` without waiting for it: what it gave, or why it failed, once `settled`. */
function follow<T>(promise: Promise<T>): { value?: T; error?: Error; readonly settled: Promise<void> } {
  const followed: { value?: T; error?: Error; settled: Promise<void> } = {
    settled: promise.then(
      (v) => void (followed.value = v),
      (err: Error) => void (followed.error = err),
    ),
  };
  return followed;
}

describe('opening a JetStream journal', () => {
  it('opened while the server restarts, it waits for the server and reads what was stored before', async () => {
    await withRestartableServer(async ({ server, nc, restart }) => {
      const first = await JetStreamJournal.open(nc, 'jo', 's2', true);
      await appendUntilStored(first, bytes('before the crash'), 1);
      await server.stop();
      // A restarted process opens its journal while the server is away.
      const opening = follow(JetStreamJournal.open(nc, 'jo', 's2', false));
      // Several of its tries (250 ms apart) and the client's dials (50 ms apart) while it is down.
      await new Promise((r) => setTimeout(r, 1000));
      expect(opening.value).toBeUndefined();
      expect(opening.error).toBeUndefined();
      await restart();
      await opening.settled;
      expect(opening.error).toBeUndefined();
      expect(opening.value?.incarnation).toBe(2);
      expect((await opening.value!.readAll()).map(text)).toEqual(['before the crash']);
    });
  });

  it('opened before the server restarts, it reads what was stored through the restart', async () => {
    await withRestartableServer(async ({ server, nc, restart }) => {
      const first = await JetStreamJournal.open(nc, 'jr', 's2', true);
      await appendUntilStored(first, bytes('before the crash'), 1);
      const restarted = await JetStreamJournal.open(nc, 'jr', 's2', false);
      await server.stop();
      // Its replay reads while the server is away: a timeout is asked again, not taken as final.
      const reading = follow(restarted.readAll());
      await new Promise((r) => setTimeout(r, 1000));
      expect(reading.value).toBeUndefined();
      expect(reading.error).toBeUndefined();
      await restart();
      await reading.settled;
      expect(reading.error).toBeUndefined();
      expect(reading.value?.map(text)).toEqual(['before the crash']);
    });
  });

  it('gives up once its budget is spent, saying how long it tried', async () => {
    const server = await startLocalNatsServer();
    const nc = await connect({ servers: server.url, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
    try {
      await server.stop();
      await expect(JetStreamJournal.open(nc, 'jb', 's1', true, 1500)).rejects.toThrow(/tried \d+ times over 1.5 s/);
    } finally {
      await nc.close();
    }
  });

  it('is refused at once by a server without JetStream, naming the cure', async () => {
    const binary = natsServerBinary();
    if (!binary) throw new Error('nats-server is not installed');
    const port = await freePort();
    const plain = spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    try {
      let nc;
      for (let i = 0; !nc; i++) {
        nc = await connect({ servers: `nats://127.0.0.1:${port}` }).catch((err: unknown) => {
          if (i > 100) throw err;
          return new Promise<undefined>((r) => setTimeout(() => r(undefined), 50));
        });
      }
      try {
        // The budget outlasts the test's timeout: only the server's own word (no JetStream) ends
        // the open in time.
        const refused = await JetStreamJournal.open(nc, 'jn', 's1', true, 600_000).then(
          () => undefined,
          (err: unknown) => err as Error,
        );
        expect(refused?.message).toMatch(/runs without JetStream \(start it with -js\)/);
      } finally {
        await nc.close();
      }
    } finally {
      plain.kill('SIGKILL');
    }
  });
});

/**
 * Resolves once process `pid` is stopped (Linux's /proc state T). A signal is sent at once but
 * taken when the process next runs: on a busy machine a server may still answer after kill().
 */
async function stoppedBySignal(pid: number): Promise<void> {
  while (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'T')
    await new Promise((r) => setTimeout(r, 10));
}

/** Resolves on the connection's next status event of `type`. */
async function nextStatus(nc: NatsConnection, type: string): Promise<void> {
  for await (const s of nc.status()) if (s.type === type) return;
}

/** Appends until the server has it, as JournalWriter does (a server just restarted may not answer yet). */
async function appendUntilStored(journal: JetStreamJournal, batch: Uint8Array, seq: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await journal.append(batch, seq);
    } catch (err) {
      if (attempt > 100) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('appending to a JetStream journal', () => {
  it('an append unanswered when the connection is lost fails at once, and sent again it is stored once', async () => {
    await withRestartableServer(async ({ server, nc, restart }) => {
      const journal = await JetStreamJournal.open(nc, 'ja', 's2', true);
      await appendUntilStored(journal, bytes('one'), 1);
      // The server stops reading with the append on its way, then dies: no answer will come.
      server.process.kill('SIGSTOP');
      await stoppedBySignal(server.process.pid!);
      const appending = follow(journal.append(bytes('two'), 2));
      await new Promise((r) => setTimeout(r, 100));
      server.process.kill('SIGKILL');
      await appending.settled;
      // Given up when the connection went, not after the client's 5 s timeout ("timeout").
      expect(appending.error?.message).toMatch(/connection to the server was lost before it answered/);
      await restart();
      await appendUntilStored(journal, bytes('two'), 2);
      const restarted = await JetStreamJournal.open(nc, 'ja', 's2', false);
      expect((await restarted.readAll()).map(text)).toEqual(['one', 'two']);
    });
  });

  it('an append made while the server is away fails once the connection is back, and sent again it is stored at once', async () => {
    await withRestartableServer(async ({ server, nc, restart }) => {
      const journal = await JetStreamJournal.open(nc, 'jw', 's2', true);
      await appendUntilStored(journal, bytes('one'), 1);
      const disconnected = nextStatus(nc, 'disconnect');
      await server.stop();
      // Made once the client knows the server is away (the server's exit comes first; on a busy
      // machine the client may hear of it later), else it is an append lost with the connection.
      await disconnected;
      // The client keeps it until it is connected again; the restarted server never answered it
      // (nats.js 3.4, nats-server 2.9: the request waited out the client's 5 s timeout).
      const appending = follow(journal.append(bytes('two'), 2));
      await restart();
      await appending.settled;
      expect(appending.error?.message).toMatch(/connection to the server was made again before it answered/);
      await appendUntilStored(journal, bytes('two'), 2);
      const restarted = await JetStreamJournal.open(nc, 'jw', 's2', false);
      expect((await restarted.readAll()).map(text)).toEqual(['one', 'two']);
    });
  });
});
