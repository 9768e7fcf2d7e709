import { isOutcomeColumn } from './metrics-table.js';
import { sweptValue, type Variant } from './variants.js';

/**
 * The swept paths whose values changed no run's outcome: for every seed and every value of the
 * other axes, each of the path's values gave the same metrics (`flattenSummary`'s, wall time left
 * out). Such an axis is most likely a field the scheme does not read (a scheme ignores the
 * options of its family that it does not use, docs/usage.md), and the sweep's table would show
 * identical rows as if the value did not matter.
 */
export function idleAxes(
  paths: readonly string[],
  runs: readonly { readonly variant: Variant; readonly metrics: Readonly<Record<string, number>> }[],
): string[] {
  const outcome = (metrics: Readonly<Record<string, number>>) =>
    JSON.stringify(Object.entries(metrics).filter(([k]) => isOutcomeColumn(k)));
  return paths.filter((path) => {
    const others = paths.filter((p) => p !== path);
    const groups = new Map<string, Set<string>>();
    const values = new Set<string>();
    for (const { variant, metrics } of runs) {
      values.add(sweptValue(variant, path));
      const key = JSON.stringify([variant.seed, ...others.map((p) => sweptValue(variant, p))]);
      const group = groups.get(key) ?? new Set<string>();
      group.add(outcome(metrics));
      groups.set(key, group);
    }
    return values.size > 1 && [...groups.values()].every((g) => g.size === 1);
  });
}
