export * from './actor.js';
export { Rng, hashString } from './rng.js';
export { EventHeap, type Scheduled } from './event-heap.js';
export { LinkModel } from './network.js';
export { SimRuntime, type SimRuntimeOptions, type SimFaults } from './sim-runtime.js';
