import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate authority and a server certificate made for one run (PEM files). */
export interface RunCertificates {
  /** What clients trust. */
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * Makes a throw-away CA and a loopback server certificate signed by it, with openssl (Debian's
 * `openssl` package), in `dir`. They last two days: long enough for any run, short enough to be
 * useless if a results folder leaks. Keys are written mode 0600.
 */
export function makeRunCertificates(dir: string): RunCertificates {
  mkdirSync(dir, { recursive: true });
  const ca = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca.key');
  const cert = join(dir, 'server.pem');
  const key = join(dir, 'server.key');
  const csr = join(dir, 'server.csr');
  const ext = join(dir, 'server.ext');
  writeFileSync(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', caKey, '-out', ca, '-days', '2', '-subj', '/CN=gridemu run CA']);
  openssl(['req', ...ec, '-keyout', key, '-out', csr, '-subj', '/CN=localhost']);
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca,
    '-CAkey',
    caKey,
    '-CAcreateserial',
    '-out',
    cert,
    '-days',
    '2',
    '-extfile',
    ext,
  ]);
  return { caFile: ca, certFile: cert, keyFile: key };
}

function openssl(args: string[]): void {
  const r = spawnSync('openssl', args, { encoding: 'utf8', env: { ...process.env, OPENSSL_CONF: '/dev/null' } });
  if (r.error) throw new Error(`--tls needs openssl (apt-get install -y openssl): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
}
