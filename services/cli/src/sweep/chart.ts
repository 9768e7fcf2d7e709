/**
 * A self-contained HTML page with one bar chart per metric (inline SVG, no scripts). A value left
 * undefined (a mean no run of the variant defines) has no bar, and says so. A value given a
 * half-width (a mean over seeds and its confidence interval) has it drawn as a whisker and written
 * as "± x" beside it: a difference between two bars means little without it.
 */
export function barChartsHtml(
  title: string,
  labels: readonly string[],
  series: readonly {
    name: string;
    values: readonly (number | undefined)[];
    halfWidths?: readonly (number | undefined)[];
  }[],
  caption?: string,
): string {
  const esc = (t: string) =>
    t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const shown = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3));
  const chart = (
    name: string,
    values: readonly (number | undefined)[],
    halfWidths: readonly (number | undefined)[],
  ) => {
    const w = 760;
    const rowH = 22;
    const labelW = 300;
    const plotW = w - labelW - 150;
    const whisker = (i: number) => (values[i] !== undefined && (halfWidths[i] ?? 0) > 0 ? halfWidths[i]! : 0);
    const max = Math.max(...values.map((v, i) => (v === undefined ? 0 : v + whisker(i))), 1e-12);
    const x = (v: number) => labelW + (plotW * Math.max(v, 0)) / max;
    const at = (v: number) => x(v).toFixed(1);
    const h = rowH * values.length + 30;
    const bars = values
      .map((v, i) => {
        const y = 20 + i * rowH;
        const label = `<text x="${labelW - 6}" y="${y + 14}" text-anchor="end">${esc(labels[i]!)}</text>`;
        if (v === undefined) return `${label}<text x="${labelW + 4}" y="${y + 14}">no run defines it</text>`;
        const hw = whisker(i);
        const mid = y + rowH / 2;
        const interval =
          hw === 0
            ? ''
            : `<path d="M${at(v - hw)} ${mid}H${at(v + hw)}M${at(v - hw)} ${mid - 4}V${mid + 4}M${at(v + hw)} ${mid - 4}V${mid + 4}" stroke="#d9822b" stroke-width="1.5"/>`;
        return (
          label +
          `<rect x="${labelW}" y="${y + 3}" width="${(x(v) - labelW).toFixed(1)}" height="${rowH - 6}" fill="#4a7ab5"/>` +
          interval +
          `<text x="${(x(v + hw) + 4).toFixed(1)}" y="${y + 14}">${shown(v)}${hw === 0 ? '' : ` ± ${shown(hw)}`}</text>`
        );
      })
      .join('\n');
    return `<h2>${esc(name)}</h2>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">\n${bars}\n</svg>`;
  };
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${esc(title)}</title></head>\n<body style="font-family:sans-serif">\n<h1>${esc(title)}</h1>\n${caption === undefined ? '' : `<p>${esc(caption)}</p>\n`}${series
    .map((s) => chart(s.name, s.values, s.halfWidths ?? []))
    .join('\n')}\n</body></html>\n`;
}
