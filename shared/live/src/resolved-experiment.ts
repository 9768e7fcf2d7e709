import { readFileSync, writeFileSync } from 'node:fs';
import { InputError, type LoadedSpec } from '@gridemu/model';
import { experimentFromData } from '@gridemu/schemes';

/**
 * DIR/experiment.json: the experiment a live run ran, as data, its --set overrides and speed-up
 * applied. `gridemu run` reads the experiment file once and hands it to the driver this way; the
 * driver hands the same data to every member in the plan. It is also the record of what ran.
 */
export interface ResolvedExperimentFile {
  /** The experiment file it came from: trace paths are relative to its folder. */
  readonly file: string;
  readonly experiment: unknown;
}

export function writeResolvedExperiment(path: string, loaded: LoadedSpec): void {
  const content: ResolvedExperimentFile = { file: loaded.file, experiment: loaded.data };
  writeFileSync(path, JSON.stringify(content, null, 2) + '\n');
}

/** Reads and validates DIR/experiment.json; a bad one is an InputError naming the file. */
export function readResolvedExperiment(path: string): LoadedSpec {
  let content: Partial<ResolvedExperimentFile>;
  try {
    content = JSON.parse(readFileSync(path, 'utf8')) as Partial<ResolvedExperimentFile>;
  } catch (err) {
    throw new InputError(`${path}: not a resolved experiment (${(err as Error).message})`);
  }
  if (typeof content !== 'object' || content === null || typeof content.file !== 'string')
    throw new InputError(`${path}: not a resolved experiment (expected { file, experiment })`);
  return experimentFromData(content.experiment, content.file);
}
