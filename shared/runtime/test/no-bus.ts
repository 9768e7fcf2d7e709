import type { Transport } from '../src/index.js';

/** A bus that carries nothing: for a live runtime whose actors all live in one process. */
export const noBus: Transport = {
  publish: () => undefined,
  subscribe: () => ({ unsubscribe: () => undefined }),
  flush: () => Promise.resolve(),
};
