export { LocalSchedulerActor, type LocalSchedulerOptions } from './local-scheduler-actor.js';
export { ExecutorActor, type ExecutorOptions } from './executor-actor.js';
export { DriverActor } from './driver-actor.js';
export { ProcessorIds, intervalSet } from './processor-ids.js';
export { siteActors, transferOf } from './site-actors.js';
