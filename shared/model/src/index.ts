export * from './job.js';
export * from './spec.js';
export * from './spec-error.js';
export { InputError, OverrideError } from './input-error.js';
export { validateSpec } from './validate.js';
export { loadSpec, parseSpecText, type LoadedSpec } from './load.js';
export { applyOverrides, parseOverride, parsePath, type Override } from './overrides.js';
