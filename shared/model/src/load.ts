import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isNode } from 'yaml';
import { applyOverrides, givenAs, parsePath, type Override } from './overrides.js';
import { SpecError, type SpecIssue } from './spec-error.js';
import type { ExperimentSpec } from './spec.js';
import type { MetaSchemes } from './meta-schemes.js';
import { validateSpec } from './validate.js';

export interface LoadedSpec {
  readonly spec: ExperimentSpec;
  /** Absolute path of the experiment file; trace paths are relative to its folder. */
  readonly file: string;
  /**
   * The experiment as data: the file's document with the overrides applied, before validation.
   * A live run hands this to its other processes, which validate it and never read the file.
   */
  readonly data: unknown;
  /**
   * Gives issues found later (a fault time before the first submission, known once the workload
   * is read) the line of their field in the file, or the override that set it.
   */
  readonly locate: (issues: readonly SpecIssue[]) => SpecIssue[];
}

/** Reads, overrides and validates an experiment file. Throws SpecError naming every bad field and its line. */
export function loadSpec(file: string, schemes: MetaSchemes, overrides: readonly Override[] = []): LoadedSpec {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SpecError(file, [
      {
        path: '',
        message:
          (err as NodeJS.ErrnoException).code === 'EISDIR'
            ? 'is a folder, not an experiment file'
            : `cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      },
    ]);
  }
  return parseSpecText(text, file, schemes, overrides);
}

export function parseSpecText(
  text: string,
  file: string,
  schemes: MetaSchemes,
  overrides: readonly Override[] = [],
): LoadedSpec {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new SpecError(
      file,
      doc.errors.map((e) => ({
        path: '',
        message: `not valid YAML: ${e.message.split('\n')[0]}`,
        line: lines.linePos(e.pos[0]).line,
      })),
    );
  }
  const raw = applyOverrides(doc.toJS(), overrides);
  const { spec, issues } = validateSpec(raw, schemes);
  const locateAll = (found: readonly SpecIssue[]): SpecIssue[] => found.map((i) => locate(i, doc, lines, overrides));
  if (!spec) throw new SpecError(file, locateAll(issues));
  return { spec, file, data: raw, locate: locateAll };
}

/**
 * Validates an experiment handed over as data (LoadedSpec.data, e.g. in a live run's plan).
 * `file` is the experiment file it came from: errors name it, and trace paths stay relative to it.
 */
export function specFromData(data: unknown, file: string, schemes: MetaSchemes): LoadedSpec {
  const { spec, issues } = validateSpec(data, schemes);
  if (!spec) throw new SpecError(file, issues);
  return { spec, file, data, locate: (found) => [...found] };
}

function locate(
  issue: SpecIssue,
  doc: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  overrides: readonly Override[],
): SpecIssue {
  const path = issue.path === '' ? [] : parsePath(issue.path);
  // An issue under an override's path, or at a field only an override made (--set foo.bar=1).
  const made = path.length > 0 && !isNode(doc.getIn(path, true));
  const fromOverride = overrides.find(
    (o) => o.path.every((k, i) => path[i] === k) || (made && path.every((k, i) => o.path[i] === k)),
  );
  if (fromOverride) return { ...issue, message: `${issue.message} (from ${givenAs(fromOverride)})` };
  // The deepest node of the path that is in the file: a missing field points at its parent.
  for (let n = path.length; n >= 0; n--) {
    const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return { ...issue, line: lines.linePos(node.range[0]).line };
  }
  return issue;
}
