// Slow tests (npm run test:slow): the paper 001 schemes npm test does not run live
// (run-live.test.ts runs hierarchical, k-distributed and k-dual).
import { schemesRunLive } from '../test/live-schemes.js';

schemesRunLive(['independent', 'unified', 'centralized', 'distributed']);
