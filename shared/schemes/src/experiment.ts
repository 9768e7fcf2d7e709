import { loadSpec, parseSpecText, type LoadedSpec, type Override } from '@gridemu/model';
import { META_SCHEMES } from './registry.js';

/** Reads, overrides and validates an experiment file, `meta:` by the module that owns its scheme. */
export function loadExperiment(file: string, overrides: readonly Override[] = []): LoadedSpec {
  return loadSpec(file, META_SCHEMES, overrides);
}

/** The same from text (the driver hands members the file's text). */
export function parseExperiment(text: string, file: string, overrides: readonly Override[] = []): LoadedSpec {
  return parseSpecText(text, file, META_SCHEMES, overrides);
}
