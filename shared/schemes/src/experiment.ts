import { loadSpec, parseSpecText, specFromData, type LoadedSpec, type Override } from '@gridemu/model';
import { META_SCHEMES } from './registry.js';

/** Reads, overrides and validates an experiment file, `meta:` by the module that owns its scheme. */
export function loadExperiment(file: string, overrides: readonly Override[] = []): LoadedSpec {
  return loadSpec(file, META_SCHEMES, overrides);
}

/** The same from text. */
export function parseExperiment(text: string, file: string, overrides: readonly Override[] = []): LoadedSpec {
  return parseSpecText(text, file, META_SCHEMES, overrides);
}

/** An experiment handed over as data (LoadedSpec.data): validated, never reread from `file`. */
export function experimentFromData(data: unknown, file: string): LoadedSpec {
  return specFromData(data, file, META_SCHEMES);
}
