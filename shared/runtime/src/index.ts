export * from './actor.js';
export { Rng, hashString } from './rng.js';
export { EventHeap, type Scheduled } from './event-heap.js';
export { LinkModel } from './network.js';
export { SimRuntime, type SimRuntimeOptions, type SimFaults } from './sim-runtime.js';
export { LiveRuntime, type LiveRuntimeOptions } from './live-runtime.js';
export { EmulatedClock } from './emulated-clock.js';
export { actorSubject, runWildcard, checkRunId, siteOf } from './subjects.js';
export { pinoLogger } from './pino-logger.js';
