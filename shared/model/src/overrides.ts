import { parse as parseYaml } from 'yaml';
import { OverrideError } from './input-error.js';

/** One `--set path=value` from the command line; the value is read as YAML (`3`, `true`, `[a, b]`). */
export interface Override {
  readonly path: readonly (string | number)[];
  readonly text: string;
  readonly value: unknown;
  /** How errors name it, as the user gave it: `--set TEXT` unless said (`--vary TEXT`, `--speedup S`). */
  readonly given?: string;
}

/** Splits `network.latency_ms` / `sites[1].cpus` / `sites.1.cpus` into keys and list indices. */
export function parsePath(path: string, option = '--set'): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const piece of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(piece);
    if (!m || (m[1] === '' && m[2] === ''))
      throw new OverrideError(
        `${option}: cannot read the path "${path}" (use e.g. network.latency_ms or sites[1].cpus)`,
      );
    if (m[1] !== '') parts.push(/^\d+$/.test(m[1]!) ? Number(m[1]) : m[1]!);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) parts.push(Number(idx[1]));
  }
  return parts;
}

/** Reads `path=value`; `option` is the command-line option it came from, named in errors. */
export function parseOverride(text: string, option = '--set'): Override {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new OverrideError(`${option} ${text}: expected path=value, e.g. --set sites[0].cpus=64`);
  let value: unknown;
  try {
    value = parseYaml(text.slice(eq + 1));
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    throw new OverrideError(`${option} ${text}: the value is not YAML (${why})`, { cause: err });
  }
  return { path: parsePath(text.slice(0, eq), option), text, value, given: `${option} ${text}` };
}

/** Each of `texts` read as parseOverride reads it, all from the option `option`. */
export function parseOverrides(texts: readonly string[], option = '--set'): Override[] {
  return texts.map((text) => parseOverride(text, option));
}

/** How an error names an override: as the user gave it. */
export function givenAs(o: Override): string {
  return o.given ?? `--set ${o.text}`;
}

/** Writes each override into the parsed file, creating mappings on the way; lists must exist. */
export function applyOverrides(raw: unknown, overrides: readonly Override[]): unknown {
  const root: unknown = structuredClone(raw ?? {});
  for (const o of overrides) {
    const given = givenAs(o);
    let node = root as Record<string | number, unknown>;
    o.path.forEach((key, i) => {
      const last = i === o.path.length - 1;
      if (node === null || typeof node !== 'object')
        throw new OverrideError(`${given}: ${o.path.slice(0, i).join('.')} is not a mapping or list`);
      if (typeof key === 'number' && !Array.isArray(node))
        throw new OverrideError(`${given}: ${o.path.slice(0, i).join('.')} is not a list`);
      if (Array.isArray(node) && typeof key === 'number' && key > node.length) {
        throw new OverrideError(`${given}: index ${key} is past the end of a list of ${node.length}`);
      }
      if (last) {
        node[key] = o.value;
      } else {
        if (node[key] === undefined || node[key] === null) node[key] = typeof o.path[i + 1] === 'number' ? [] : {};
        node = node[key] as Record<string | number, unknown>;
      }
    });
  }
  return root;
}
