import { OverrideError } from '@gridemu/model';

/** One `--vary path=v1,v2,...` from the command line. */
export interface Axis {
  readonly path: string;
  readonly values: readonly string[];
}

export interface Variant {
  /** e.g. "network.latency_ms=10,seed=2"; also the name of its results folder (made safe). */
  readonly name: string;
  readonly sets: readonly string[];
  readonly seed: number;
}

export function parseAxis(text: string): Axis {
  const eq = text.indexOf('=');
  if (eq <= 0 || eq === text.length - 1)
    throw new OverrideError(`--vary ${text}: expected path=v1,v2,... e.g. --vary network.latency_ms=0,10,50`);
  // Every variant runs with seed=S for each of --seeds' seeds, which would undo a varied seed.
  if (text.slice(0, eq) === 'seed')
    throw new OverrideError(`--vary ${text}: the seed is swept with --seeds N (seeds S to S+N-1 for every variant)`);
  const values = text
    .slice(eq + 1)
    .split(',')
    .map((v) => v.trim());
  // A stray comma is a typo, not a value; a value twice would be two runs writing one folder.
  if (values.includes('')) throw new OverrideError(`--vary ${text}: an empty value (two commas, or one at an end)`);
  const twice = values.find((v, i) => values.indexOf(v) !== i);
  if (twice !== undefined) throw new OverrideError(`--vary ${text}: ${twice} is given twice`);
  return { path: text.slice(0, eq), values };
}

/**
 * Every `--vary` of the command line, each field swept by one of them only. A `--set` (`sets`) of a
 * swept field must give one of its values: it is what the spec is first checked with, before each
 * variant is (a `--set meta.scheme=X` beside `--vary meta.scheme=X` lets fields only X reads pass),
 * and a value no variant has would be overridden in every run unseen.
 */
export function parseAxes(varies: readonly string[], sets: readonly string[]): Axis[] {
  const axes = varies.map(parseAxis);
  const paths = axes.map((a) => a.path);
  const twice = paths.find((p, i) => paths.indexOf(p) !== i);
  if (twice !== undefined)
    throw new OverrideError(`--vary ${twice} is given twice: list all its values in one --vary ${twice}=v1,v2,...`);
  for (const set of sets) {
    const eq = set.indexOf('=');
    const axis = axes.find((a) => a.path === set.slice(0, eq));
    if (axis && !axis.values.includes(set.slice(eq + 1).trim()))
      throw new OverrideError(
        `--set ${set} gives a field that --vary sweeps a value none of its runs has (${axis.values.join(', ')}): every run would override it`,
      );
  }
  return axes;
}

/** Every combination of the axes' values (first axis slowest), each with every seed. */
export function variants(axes: readonly Axis[], seeds: readonly number[]): Variant[] {
  let combos: string[][] = [[]];
  for (const axis of axes) combos = combos.flatMap((c) => axis.values.map((v) => [...c, `${axis.path}=${v}`]));
  return combos.flatMap((sets) => seeds.map((seed) => ({ name: sets.join(',') || 'base', sets, seed })));
}

/** The value a variant gives the swept `path`, as it was written on the command line. */
export function sweptValue(v: Variant, path: string): string {
  return v.sets.find((s) => s.startsWith(`${path}=`))!.slice(path.length + 1);
}

export function folderName(v: Variant): string {
  return `${v.name.replace(/[^A-Za-z0-9_.=,-]/g, '_')}__seed${v.seed}`;
}
