export { LocalSchedulerActor, type LocalSchedulerOptions } from './local-scheduler-actor.js';
export { MetaschedulerActor, type MetaschedulerOptions, type DistributedScheme } from './metascheduler-actor.js';
export { ExecutorActor, type ExecutorOptions } from './executor-actor.js';
export { DriverActor } from './driver-actor.js';
export { ProcessorIds, intervalSet } from './processor-ids.js';
export { planGrid, siteActors, UNIFIED_SITE, type ActorPlacement, type GridPlan } from './grid-plan.js';
export { simulate, type SimulationResult, type SimulateOptions, type SimulationProgress } from './simulate.js';
export { CentralActor } from './central-actor.js';
export { HierarchicalActor } from './hierarchical-actor.js';
