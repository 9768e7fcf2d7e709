import { readFileSync } from 'node:fs';

/** A CSV file the sweep wrote, as one object per row; numeric cells become numbers. */
export function readCsv(file) {
  const [head, ...rows] = readFileSync(file, 'utf8').trim().split('\n').map(splitCsv);
  return rows.map((r) =>
    Object.fromEntries(head.map((h, i) => [h, r[i] !== '' && /^-?[\d.e+-]+$/.test(r[i]) ? Number(r[i]) : r[i]])),
  );
}

/** One CSV line's cells (quoted cells may hold commas). */
export function splitCsv(line) {
  const out = [];
  let cur = '';
  let q = false;
  for (const ch of line) {
    if (ch === '"') q = !q;
    else if (ch === ',' && !q) (out.push(cur), (cur = ''));
    else cur += ch;
  }
  out.push(cur);
  return out;
}
