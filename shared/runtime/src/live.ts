// The live runtime: mailboxes, the emulated clock and its timers, logs and latency figures, over
// any Transport (@gridemu/transport-nats in a live run).
export { LiveRuntime, TRACE_LOG_MESSAGE, type LiveRuntimeOptions } from './live-runtime.js';
export { ReplayedLineFilter } from './replayed-log-lines.js';
export { MemoryBus } from './memory-transport.js';
export { EmulatedClock } from './emulated-clock.js';
export { wallNow_ms } from './wall-clock.js';
export { RoundTripEstimate } from './round-trip-estimate.js';
export { LossEvidence } from './loss-evidence.js';
export { DurableOutbox } from './durable-outbox.js';
export { AckBatches, PeriodicFlush } from './ack-batches.js';
export { DEFAULT_TIMER_SPIN_MS } from './precise-timer.js';
export { pinoLogger } from './pino-logger.js';
export {
  LatencyHistogram,
  byTypeStates,
  histogramOf,
  histogramStates,
  nestedHistogramOf,
  type LatencyStats,
} from './latency-histogram.js';
export { BusOutages, mergeOutages, type OutageSpan } from './bus-outages.js';
export { WindowCounts, type WindowCountState } from './window-counts.js';
export { FileJournal } from './file-journal.js';
export { MemoryJournal, type Journal } from './journal.js';
export { encodeJournalBatch, decodeJournalBatch } from './journal-codec.js';
export type { JournalEntry, JournalBatch } from './journal-entry.js';
