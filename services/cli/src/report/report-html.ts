import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One chart of a report: a Chart.js configuration, drawn into its own canvas. */
export interface ReportChart {
  readonly id: string;
  readonly title: string;
  /** What the chart shows, in a sentence under its title. */
  readonly caption: string;
  readonly config: object;
}

/** Chart.js's UMD build, read once, inlined into every report so it opens without a network. */
let chartJs: string | undefined;
function chartJsSource(): string {
  // The package exports only its module builds; the UMD file sits beside them in dist/.
  chartJs ??= readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'),
    'utf8',
  );
  return chartJs;
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * One self-contained HTML file: a heading, a table of figures, and the charts, with Chart.js
 * inlined. Each chart is drawn without animation; once drawn, its canvas gets
 * `data-rendered="true"` and `data-painted` (how many of its pixels are not blank), which is what
 * the report's test reads from headless Chromium.
 */
export function reportHtml(title: string, facts: readonly [string, string][], charts: readonly ReportChart[]): string {
  // JSON inside a <script>: "</" must not close the element early.
  const data = JSON.stringify(charts.map((c) => ({ id: c.id, config: c.config }))).replace(/<\//g, '<\\/');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin-bottom: 2em; }
td { padding: 2px 12px 2px 0; }
td:first-child { color: #555; white-space: nowrap; vertical-align: top; }
section { margin: 2.5em 0; }
p.caption { color: #555; margin: 0.2em 0 0.8em; }
.chart { position: relative; height: 340px; }
</style></head>
<body>
<h1>${esc(title)}</h1>
<table>${facts.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</table>
${charts.map((c) => `<section><h2>${esc(c.title)}</h2><p class="caption">${esc(c.caption)}</p><div class="chart"><canvas id="${esc(c.id)}"></canvas></div></section>`).join('\n')}
<script>${chartJsSource()}</script>
<script>
const charts = ${data};
for (const c of charts) {
  const canvas = document.getElementById(c.id);
  const config = c.config;
  config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false }, config.options || {});
  // Several datasets may share a label (the faults chart): the legend shows each label once.
  const legend = config.options.plugins && config.options.plugins.legend;
  if (legend && legend.uniqueLabels) legend.labels = { filter: (item, data) => data.datasets.findIndex((d) => d.label === item.text) === item.datasetIndex };
  const chart = new Chart(canvas, config);
  chart.draw();
  const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i] > 0) painted++;
  canvas.dataset.painted = String(painted);
  canvas.dataset.rendered = String(painted > 0 && chart.data.datasets.length > 0);
}
document.body.dataset.charts = String(charts.length);
</script>
</body></html>
`;
}
