export { leastLoadedSites, greedyTarget } from './site-selection.js';
export { JobSemaphore, type ClaimVerdict } from './job-semaphore.js';
export { CentralEasy, type Placement } from './central-easy.js';
export { StartQueryRound, type QueryDecision, type QueryRoundOptions } from './start-query-round.js';
