import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemuLive, REPO, smallSpec, tmp } from './live-helpers.js';

/** `gridemu report`: one self-contained HTML file whose every chart renders in a real browser. */
const chromium =
  ['chromium', 'chromium-browser', 'google-chrome']
    .map((c) => spawnSync('sh', ['-c', `command -v ${c}`], { encoding: 'utf8' }).stdout.trim())
    .find((p) => p !== '') ?? '';
const missing = chromium === '' ? ' skipped: needs headless Chromium (apt-get install -y chromium)' : '';
const MAIN = join(REPO, 'services/cli/dist/main.js');
/** Screenshots are kept here for a person to look at (not committed). */
const SHOTS = join(REPO, 'services/cli/test-output');

function gridemu(args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', cwd: REPO });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Opens the report in headless Chromium: what every chart's canvas says once the page's scripts ran, and a screenshot. */
function openInChromium(html: string, screenshot: string) {
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--allow-file-access-from-files'];
  const dom = spawnSync(chromium, [...flags, '--dump-dom', `file://${html}`], { encoding: 'utf8', timeout: 60_000 });
  expect(dom.status, dom.stderr).toBe(0);
  const canvases = [...dom.stdout.matchAll(/<canvas id="([^"]+)"([^>]*)>/g)].map((m) => ({
    id: m[1]!,
    rendered: /data-rendered="true"/.test(m[2]!),
    painted: Number(/data-painted="(\d+)"/.exec(m[2]!)?.[1] ?? 0),
  }));
  mkdirSync(SHOTS, { recursive: true });
  const shot = spawnSync(
    chromium,
    [...flags, '--window-size=1200,3400', `--screenshot=${screenshot}`, `file://${html}`],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(shot.status, shot.stderr).toBe(0);
  return { charts: Number(/data-charts="(\d+)"/.exec(dom.stdout)?.[1] ?? -1), canvases, html: dom.stdout };
}

describe('gridemu report (issue 12)', () => {
  it.skipIf(missing !== '')(
    `a 4-site live run with a crash: every chart renders in headless Chromium, needing no network, the run's own timers and delays among them${missing}`,
    async () => {
      const dir = tmp();
      const spec = smallSpec(dir, { sites: 4, jobs: 40, scheme: 'k-distributed', k: 2, speedup: 20000 });
      writeFileSync(
        spec,
        readFileSync(spec, 'utf8') + 'faults:\n  crash: [{ process: s2, at_s: 8000, down_s: 3000 }]\n',
      );
      const out = join(dir, 'out');
      const run = await gridemuLive(['run', spec, '--out', out, '--timeout', '120']).done;
      expect(run.code, run.err).toBe(0);
      const r = gridemu(['report', out]);
      expect(r.code, r.err).toBe(0);
      const html = join(out, 'report.html');
      const text = readFileSync(html, 'utf8');
      // Self-contained: Chart.js is inline, nothing is fetched.
      expect(
        /<script[^>]*\ssrc=|<link[\s>]|<img[\s>]|<iframe[\s>]/.test(text),
        'the report loads something from outside',
      ).toBe(false);
      expect(text.length).toBeGreaterThan(150_000); // Chart.js itself is in the file
      const page = openInChromium(html, join(SHOTS, 'report-run.png'));
      expect(page.charts).toBe(10);
      expect(page.canvases.map((c) => c.id)).toEqual([
        'utilization',
        'queue',
        'waits',
        'slowdown',
        'messages',
        'timer-lag',
        'timer-lag-p95',
        'delay',
        'delay-p95',
        'faults',
      ]);
      for (const c of page.canvases) {
        expect(c.rendered, `${c.id} did not render`).toBe(true);
        expect(c.painted, `${c.id} painted almost nothing`).toBeGreaterThan(2000);
      }
      expect(page.html).toContain('s2 down');
      // What the run measured of itself: its speed-up and the fidelity guard's verdict in the table.
      expect(page.html).toContain('speed-up 20000:');
      expect(page.html).toMatch(/<td>fidelity guard<\/td><td>(quiet: one hop|\d+ warnings?, at the top)/);
      expect(statSync(join(SHOTS, 'report-run.png')).size).toBeGreaterThan(20_000);
    },
  );

  it.skipIf(missing !== '')(`a sweep folder: each metric against the variants, every chart rendered${missing}`, () => {
    const out = join(tmp(), 'sweep');
    const s = gridemu([
      'sweep',
      'examples/quickstart.yaml',
      '--vary',
      'meta.scheme=independent,distributed,k-distributed',
      '--seeds',
      '2',
      '--out',
      out,
    ]);
    expect(s.code, s.err).toBe(0);
    expect(gridemu(['report', out]).code).toBe(0);
    const page = openInChromium(join(out, 'report.html'), join(SHOTS, 'report-sweep.png'));
    expect(page.charts).toBe(6);
    for (const c of page.canvases) expect(c.rendered && c.painted > 2000, c.id).toBe(true);
  });

  it.skipIf(missing !== '')(
    `a folder of simulate --seeds: each metric by seed with the mean and interval simulate gave${missing}`,
    () => {
      const out = join(tmp(), 'seeds');
      const s = gridemu(['simulate', 'examples/quickstart.yaml', '--seeds', '3', '--out', out, '--quiet']);
      expect(s.code, s.err).toBe(0);
      const r = gridemu(['report', out]);
      expect(r.code, r.err).toBe(0);
      const page = openInChromium(join(out, 'report.html'), join(SHOTS, 'report-seeds.png'));
      expect(page.charts).toBe(6);
      for (const c of page.canvases) expect(c.rendered && c.painted > 2000, c.id).toBe(true);
      const wait = JSON.parse(readFileSync(join(out, 'seeds.json'), 'utf8')).metrics.mean_wait_s;
      expect(page.html).toContain(`the mean over 3 seeds (${Number(wait.mean.toPrecision(4))})`);
      // The interval's two lines, each its own legend entry.
      expect(page.html).toContain('90% interval, low');
      expect(page.html).toContain('90% interval, high');
    },
  );

  it('draws one seed without an interval it cannot have', () => {
    const out = join(tmp(), 'one-seed');
    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--seeds', '1', '--out', out, '--quiet']).code).toBe(0);
    expect(gridemu(['report', out]).code).toBe(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('one seed gives no interval');
    expect(html).not.toContain('confidence interval');
  });

  it('writes --out where it is told, making its folder', () => {
    const results = tmp();
    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--out', results, '--quiet']).code).toBe(0);
    const page = join(tmp(), 'not', 'yet', 'there.html');
    const r = gridemu(['report', results, '--out', page]);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('<html');
  });

  it("names the field of a live run's network.json that is out of shape, rather than drawing it wrong", () => {
    const results = tmp();
    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--out', results, '--quiet']).code).toBe(0);
    // A live run's folder, as far as the report reads it: its summary says run, and network.json is beside it.
    const summary = JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8'));
    writeFileSync(join(results, 'summary.json'), JSON.stringify({ ...summary, mode: 'run', live: { speedup: 1000 } }));
    writeFileSync(
      join(results, 'network.json'),
      JSON.stringify({
        format: 'gridemu-network/1',
        speedup: 1000,
        links: {},
        timer_lag: { count: 0, sum_ms: 0, min_ms: 0, max_ms: 0, buckets: {} },
        mailbox: { timer_fire_timeline: { bin_s: 500, locations: 'every one' } },
      }),
    );
    const r = gridemu(['report', results]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(results, 'network.json')}: mailbox.`);
  });

  it('refuses a folder that is neither a results nor a sweep folder, naming what is missing', () => {
    const r = gridemu(['report', tmp()]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /jobs\.csv: not found \(is .* a results folder of gridemu simulate or run, or a sweep folder\?\)/,
    );
  });
});
