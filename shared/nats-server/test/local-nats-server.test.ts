import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalNatsServer } from '../src/index.js';

describe("a run's local nats-server", () => {
  it('keeps its log in the folder it is given, a restart of it adding to the same file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gridemu-nats-log-')), 'nats');
    const first = await startLocalNatsServer({ dir });
    await first.stop();
    const again = await startLocalNatsServer({ dir, port: first.port });
    await again.stop();
    const log = readFileSync(join(dir, 'nats-server.log'), 'utf8');
    expect(log.match(/Server is ready/g)).toHaveLength(2);
    expect(log).toContain(`Listening for client connections on 127.0.0.1:${first.port}`);
  });
});
