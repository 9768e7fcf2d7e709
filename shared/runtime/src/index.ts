// The runtime core: the actor API, the simulator and the Transport seam. It loads no I/O library,
// so the simulator starts fast; the live runtime is @gridemu/runtime/live.
export * from './actor.js';
export { Rng, hashString } from './rng.js';
export { EventHeap, type Scheduled } from './event-heap.js';
export { LinkModel } from './network.js';
export {
  MeasuredNetwork,
  LatencySampler,
  MEASURED_NETWORK_FORMAT,
  MIN_TYPE_SAMPLES,
  type MeasuredNetworkFile,
  type AppliedCrash,
} from './measured-network.js';
export { MailboxModel } from './mailbox-model.js';
export { inverseNormalCdf, normalCdf } from './normal.js';
export { SimRuntime, type SimRuntimeOptions, type SimFaults } from './sim-runtime.js';
export {
  Cuts,
  faultEvents,
  healOf,
  onItsWayDuring,
  locationPartitions,
  partitionsAt,
  type BusOutage,
  type FaultEvent,
  type LocationCrash,
  type LocationPartition,
} from './fault-schedule.js';
export { checkRunId, siteOf, senderOf } from './subjects.js';
export { makeContext, type ContextHost } from './context.js';
export { topicRecipient, type Transport, type BusTarget, type BusSubscription } from './transport.js';
export { SimulationError, type SimulationFailure } from './simulation-error.js';
export { RunCounters } from './run-counters.js';
export { JournalRefusedError, type Journal } from './journal.js';
export { PolicyProcess, PolicyError, relativePathsMissing } from './policy-process.js';
