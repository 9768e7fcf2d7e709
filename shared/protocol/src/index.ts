// The message catalogue and its validation; the wire (msgpack codec, control plane) is
// @gridemu/protocol/wire, so code that never touches a bus does not load msgpack.
export * from './messages.js';
export * from './addresses.js';
export {
  messageProblem,
  isMessage,
  messageValidator,
  CORE_MESSAGE_SHAPES,
  fieldProblem,
  type CatalogueExtensions,
  type JobFieldRules,
  type FieldRule,
  type FieldCheck,
  type MessageShape,
  type MessageShapes,
  type MessageCheck,
} from './validate-message.js';
export type {
  LatencyState,
  MailboxSplit,
  MailboxTimeline,
  TimerTimeline,
  MemberReport,
  OrchestratorTally,
  Rejoin,
  RunClock,
} from './control.js';
