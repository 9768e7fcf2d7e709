/**
 * What `gridemu run` tells a successor standing by for a planned crash (faults.crash) once its
 * predecessor is dead: one JSON line on its standard input.
 */
export interface StandbyResume {
  /** When the predecessor was killed, emulated seconds. */
  readonly crashed_at_s: number;
  /** When the crash's plan has the process back (at_s + down_s), emulated seconds. */
  readonly resume_at_s: number;
}

/**
 * Waits for the one line that tells a standby to take over. Undefined if `input` ends first: the
 * run no longer needs it (its crash did not happen, or the run is over). A line that is not a
 * StandbyResume is an error naming the field.
 */
export function takeOverFrom(input: NodeJS.ReadableStream): Promise<StandbyResume | undefined> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = () => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onEnd);
      input.pause();
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const newline = text.indexOf('\n');
      if (newline < 0) return;
      done();
      try {
        resolve(parseResume(text.slice(0, newline)));
      } catch (err) {
        reject(err as Error);
      }
    };
    const onEnd = () => {
      done();
      resolve(undefined);
    };
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onEnd);
  });
}

/** One take-over line, checked. */
export function parseResume(line: string): StandbyResume {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`the take-over line on standard input is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
  }
  const r = value as Record<string, unknown> | null;
  for (const field of ['crashed_at_s', 'resume_at_s'] as const)
    if (typeof r?.[field] !== 'number' || !Number.isFinite(r[field]))
      throw new Error(
        `the take-over line on standard input must give ${field} in emulated seconds: ${line.slice(0, 200)}`,
      );
  return { crashed_at_s: r!['crashed_at_s'] as number, resume_at_s: r!['resume_at_s'] as number };
}
