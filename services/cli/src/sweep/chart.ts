/**
 * A self-contained HTML page with one bar chart per metric (inline SVG, no scripts). A value left
 * undefined (a mean no run of the variant defines) has no bar, and says so.
 */
export function barChartsHtml(
  title: string,
  labels: readonly string[],
  series: readonly { name: string; values: readonly (number | undefined)[] }[],
): string {
  const esc = (t: string) =>
    t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const chart = (name: string, values: readonly (number | undefined)[]) => {
    const w = 760;
    const rowH = 22;
    const labelW = 300;
    const max = Math.max(...values.filter((v): v is number => v !== undefined), 1e-12);
    const h = rowH * values.length + 30;
    const bars = values
      .map((v, i) => {
        const y = 20 + i * rowH;
        const label = `<text x="${labelW - 6}" y="${y + 14}" text-anchor="end">${esc(labels[i]!)}</text>`;
        if (v === undefined) return `${label}<text x="${labelW + 4}" y="${y + 14}">no run defines it</text>`;
        const bw = ((w - labelW - 90) * v) / max;
        return (
          label +
          `<rect x="${labelW}" y="${y + 3}" width="${bw.toFixed(1)}" height="${rowH - 6}" fill="#4a7ab5"/>` +
          `<text x="${(labelW + bw + 4).toFixed(1)}" y="${y + 14}">${Number.isInteger(v) ? v : v.toFixed(3)}</text>`
        );
      })
      .join('\n');
    return `<h2>${esc(name)}</h2>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">\n${bars}\n</svg>`;
  };
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${esc(title)}</title></head>\n<body style="font-family:sans-serif">\n<h1>${esc(title)}</h1>\n${series
    .map((s) => chart(s.name, s.values))
    .join('\n')}\n</body></html>\n`;
}
