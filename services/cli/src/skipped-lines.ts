/** What summary.json's `workload` says of one source's lines skipped with --lenient. */
interface SkippedLines {
  readonly name?: unknown;
  readonly file?: unknown;
  readonly malformed_lines?: unknown;
  readonly malformed_examples?: unknown;
}

/**
 * One warning per source whose malformed lines --lenient skipped: the count is in summary.json,
 * where a user who did not look would never see that the run read fewer jobs than the trace holds.
 */
export function skippedLinesWarnings(sources: readonly object[]): string[] {
  return (sources as readonly SkippedLines[]).flatMap((s) => {
    const count = typeof s.malformed_lines === 'number' ? s.malformed_lines : 0;
    if (count === 0) return [];
    const first = Array.isArray(s.malformed_examples) ? s.malformed_examples[0] : undefined;
    const what = typeof s.file === 'string' ? s.file : `source ${String(s.name)}`;
    return [
      `warning: --lenient skipped ${count} malformed line${count === 1 ? '' : 's'} of ${what}` +
        `${typeof s.name === 'string' && s.name !== what ? ` (source ${s.name})` : ''}` +
        `${typeof first === 'string' ? `, the first: ${first}` : ''} (summary.json's workload)`,
    ];
  });
}
