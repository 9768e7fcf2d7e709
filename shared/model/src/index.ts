export * from './job.js';
export * from './spec.js';
export * from './spec-error.js';
export { InputError, OverrideError, UnavailableError, UsageError } from './input-error.js';
export { validateSpec } from './validate.js';
export type { MetaSchemes, MetaContext, SourceKindReader } from './meta-schemes.js';
export {
  FieldReader,
  join as fieldPath,
  NON_NEGATIVE,
  NON_NEGATIVE_INTEGER,
  POSITIVE,
  POSITIVE_INTEGER,
  PROBABILITY,
  type NumberRule,
} from './field-reader.js';
export { closestName, didYouMean, namesStartingWith } from './closest-name.js';
export { loadSpec, parseSpecText, specFromData, type LoadedSpec } from './load.js';
export { applyOverrides, parseOverride, parseOverrides, parsePath, type Override } from './overrides.js';
export {
  NO_FAULTS,
  readFaults,
  faultTimeIssues,
  type FaultsSpec,
  type CrashFault,
  type PartitionFault,
  type NatsRestartFault,
} from './faults.js';
export { largest, smallest } from './extremes.js';
