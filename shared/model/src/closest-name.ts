/**
 * The name in `known` that `typed` most likely meant, for the error about an unknown one (a field,
 * a value, a command, an option): one a letter or two away (a typo: `speed_up` for `speedup`), or
 * one it begins or ends (`latency` for `latency_ms`). Undefined when none is close: a guess far off
 * would mislead more than help.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const allowed = typed.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const shorter = Math.min(name.length, typed.length);
    const affix = shorter >= 4 && (name.startsWith(typed) || typed.startsWith(name) || name.endsWith(typed));
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    // Ranked by edits even among affixes: `shadow-class` means `shadow-classes`, not `shadow`.
    if ((affix || distance <= allowed) && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/**
 * The names in `known` that begin as `typed` does, whatever the case, at most `limit` in the order
 * given (`kth-sp2` finds KTH-SP2-1996-2.1-cln.swf.gz); none for a `typed` under three characters,
 * which would match too much.
 */
export function namesStartingWith(typed: string, known: Iterable<string>, limit = 5): string[] {
  const lower = typed.toLowerCase();
  if (lower.length < 3) return [];
  const found: string[] = [];
  for (const name of known) {
    if (found.length === limit) break;
    if (name.toLowerCase().startsWith(lower)) found.push(name);
  }
  return found;
}

/** The end of an error that names what was likely meant (`; did you mean X?`), or nothing. */
export function didYouMean(meant: string | undefined): string {
  return meant === undefined ? '' : `; did you mean ${meant}?`;
}

/** Levenshtein distance, with a swap of two neighbouring letters counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const substitution = rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}
