export { DriverActor } from './driver-actor.js';
export { ProcessorIds, intervalSet } from './processor-ids.js';
export { hasConfirmedRuns, type ConfirmedRuns } from './confirmed-runs.js';
