export { NatsTransport } from './nats-transport.js';
export {
  actorSubject,
  topicSubject,
  runWildcard,
  subjectOf,
  inboxOf,
  parseSubject,
  senderOfSubject,
  publishAsPatterns,
  hearPatterns,
} from './subjects.js';
export { JetStreamJournal, journalStream, journalSubject, journalPermissions } from './jetstream-journal.js';
export { runJournalStreams, removeRunJournals } from './run-journals.js';
export { BATCH_MARK, encodeBatch, splitBatch, isBatch } from './batch-frame.js';
