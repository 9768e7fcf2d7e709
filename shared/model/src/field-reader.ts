import { closestName, didYouMean } from './closest-name.js';
import type { SpecIssue } from './spec-error.js';

/**
 * Reads typed values out of parsed YAML, recording an issue (with the field's path) for each
 * value that is missing or wrong instead of stopping at the first.
 */
export class FieldReader {
  readonly issues: SpecIssue[] = [];

  fail(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  object(value: unknown, path: string): Record<string, unknown> | undefined {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.fail(path, 'must be a mapping');
      return undefined;
    }
    return value as Record<string, unknown>;
  }

  /**
   * Flags keys that are not in `known`: a typo in an experiment file must not pass silently. The
   * error suggests the known key it is closest to, or where the key belongs when `elsewhere` names
   * it (a section's field written at the top: `scheme` for `meta.scheme`).
   */
  onlyKeys(
    obj: Record<string, unknown>,
    path: string,
    known: readonly string[],
    elsewhere: Readonly<Record<string, string>> = {},
  ): void {
    for (const key of Object.keys(obj)) {
      if (known.includes(key)) continue;
      const meant = Object.hasOwn(elsewhere, key) ? elsewhere[key] : closestName(key, known);
      this.fail(join(path, key), `unknown field (expected one of: ${known.join(', ')})${didYouMean(meant)}`);
    }
  }

  array(value: unknown, path: string): unknown[] | undefined {
    if (!Array.isArray(value)) {
      this.fail(path, 'must be a list');
      return undefined;
    }
    return value;
  }

  string(value: unknown, path: string, fallback?: string): string {
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value === 'string' && value.length > 0) return value;
    if (typeof value === 'number') return String(value);
    this.fail(path, value === undefined ? 'is required' : 'must be a non-empty string');
    return fallback ?? '';
  }

  oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[], fallback?: T): T {
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    const meant = typeof value === 'string' ? closestName(value, allowed) : undefined;
    this.fail(
      path,
      value === undefined
        ? `is required (one of: ${allowed.join(', ')})`
        : `must be one of: ${allowed.join(', ')} (got ${JSON.stringify(value)})${didYouMean(meant)}`,
    );
    return fallback ?? allowed[0]!;
  }

  number(value: unknown, path: string, opts: NumberRule, fallback?: number): number {
    if (value === undefined && fallback !== undefined) return fallback;
    if (value === undefined) {
      this.fail(path, `is required (${describe(opts)})`);
      return fallback ?? 0;
    }
    // An integer past 2^53 is not exact: seed + 1 would be the same seed.
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (!opts.integer || Number.isSafeInteger(value)) &&
      (opts.min === undefined || value >= opts.min) &&
      (opts.max === undefined || value <= opts.max) &&
      (opts.exclusiveMin === undefined || value > opts.exclusiveMin);
    if (!ok) {
      const unsafe = opts.integer === true && Number.isInteger(value) && !Number.isSafeInteger(value);
      this.fail(path, `must be ${describe(opts)}${unsafe ? ' under 2^53' : ''} (got ${shown(value)})`);
      return fallback ?? 0;
    }
    return value as number;
  }

  boolean(value: unknown, path: string, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    this.fail(path, `must be true or false (got ${JSON.stringify(value)})`);
    return fallback;
  }
}

export interface NumberRule {
  readonly integer?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: number;
}

export const POSITIVE_INTEGER: NumberRule = { integer: true, min: 1 };
export const NON_NEGATIVE_INTEGER: NumberRule = { integer: true, min: 0 };
export const NON_NEGATIVE: NumberRule = { min: 0 };
export const POSITIVE: NumberRule = { exclusiveMin: 0 };
export const PROBABILITY: NumberRule = { min: 0, max: 1 };

/** A value as an error shows it: YAML's .nan and .inf are numbers, which JSON would print as null. */
function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function describe(r: NumberRule): string {
  if (r === POSITIVE_INTEGER) return 'a positive integer';
  if (r === NON_NEGATIVE_INTEGER) return 'a non-negative integer';
  if (r === NON_NEGATIVE) return 'a non-negative number';
  if (r === POSITIVE) return 'a positive number';
  if (r === PROBABILITY) return 'a probability in [0, 1]';
  const parts: string[] = [r.integer ? 'an integer' : 'a number'];
  if (r.min !== undefined) parts.push(`>= ${r.min}`);
  if (r.exclusiveMin !== undefined) parts.push(`> ${r.exclusiveMin}`);
  if (r.max !== undefined) parts.push(`<= ${r.max}`);
  return parts.join(' ');
}

export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}
