import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardQueries, REPO, tmp } from './live-helpers.js';

/** deploy/grafana: every panel queries the provisioned Prometheus, and every query parses. */
const GRAFANA = join(REPO, 'deploy/grafana');

interface Panel {
  readonly title: string;
  readonly datasource?: { readonly uid?: string };
  readonly targets?: readonly {
    readonly refId: string;
    readonly expr: string;
    readonly datasource?: { readonly uid?: string };
  }[];
}

const promtool = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).stdout.trim();

describe('the Grafana dashboard (issue 12)', () => {
  it('has the panels the issue asks for, each on the provisioned datasource', () => {
    const provisioned = readFileSync(join(GRAFANA, 'provisioning/datasources/prometheus.yaml'), 'utf8');
    const uid = /^\s*uid:\s*(\S+)\s*$/m.exec(provisioned)?.[1];
    expect(uid).toBe('gridemu-prometheus');
    const dashboard = JSON.parse(readFileSync(join(GRAFANA, 'dashboards/gridemu.json'), 'utf8')) as {
      panels: Panel[];
      templating: { list: { datasource: { uid: string } }[] };
    };
    const titles = dashboard.panels.map((p) => p.title).join(' | ');
    for (const want of [
      /Utilization per site/,
      /Queue length per site/,
      /Wait time/,
      /Protocol messages/,
      /Claim conflicts/,
      /Time lag/,
      /Faults and restarts/,
    ])
      expect(titles).toMatch(want);
    for (const p of dashboard.panels) {
      expect(p.datasource?.uid, p.title).toBe(uid);
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets ?? [])
        expect(t.datasource?.uid ?? p.datasource?.uid, `${p.title} ${t.refId}`).toBe(uid);
    }
    for (const v of dashboard.templating.list) expect(v.datasource.uid).toBe(uid);
  });

  it.skipIf(promtool === '')(
    `every panel's query parses (promtool check rules)${promtool === '' ? ' skipped: needs promtool (apt-get install -y prometheus)' : ''}`,
    () => {
      const queries = dashboardQueries();
      expect(queries.length).toBeGreaterThanOrEqual(8);
      // A recording rule per query: promtool parses each expression and says which one it cannot.
      const rules = {
        groups: [
          {
            name: 'dashboard',
            rules: queries.map((q, i) => ({ record: `gridemu:dashboard_query_${i}`, expr: q.expr })),
          },
        ],
      };
      const file = join(tmp(), 'dashboard-rules.json');
      writeFileSync(file, JSON.stringify(rules));
      const r = spawnSync(promtool, ['check', 'rules', file], { encoding: 'utf8' });
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout).toContain(`${queries.length} rules found`);
      // And it can fail: a query that does not parse is refused.
      writeFileSync(
        file,
        JSON.stringify({
          groups: [{ name: 'bad', rules: [{ record: 'gridemu:bad', expr: 'sum by (site (gridemu_jobs_queued)' }] }],
        }),
      );
      expect(spawnSync(promtool, ['check', 'rules', file], { encoding: 'utf8' }).status).not.toBe(0);
    },
  );
});
