import { isDeepStrictEqual } from 'node:util';

/** A field whose value differs between two runs' specs (summary.json's spec, overrides applied). */
export interface SpecDifference {
  /** The field as --set names it: `meta.k`, `workload[0].skip`. */
  readonly path: string;
  /** Its value in each spec; undefined where that spec has no such field. */
  readonly a: unknown;
  readonly b: unknown;
}

/**
 * The fields two specs differ in, leaf by leaf: what a comparison of two runs compares, besides
 * the runtimes. A researcher comparing two folders should see that they differ in `meta.k` and
 * nothing else, or also in a seed or a trace slice they did not mean to change.
 */
export function specDifferences(a: unknown, b: unknown, path = ''): SpecDifference[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (Array.isArray(a) && Array.isArray(b))
    return Array.from({ length: Math.max(a.length, b.length) }, (_, i) =>
      specDifferences(a[i], b[i], `${path}[${i}]`),
    ).flat();
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => specDifferences(a[k], b[k], path === '' ? k : `${path}.${k}`));
  }
  return [{ path, a, b }];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One difference as a line's part: `meta.k 2 → 3`, a field one spec lacks as "none". */
export function describeSpecDifference(d: SpecDifference): string {
  const shown = (v: unknown) => {
    if (v === undefined) return 'none';
    const text = JSON.stringify(v);
    return text.length > 40 ? `${text.slice(0, 37)}...` : text;
  };
  return `${d.path} ${shown(d.a)} → ${shown(d.b)}`;
}
