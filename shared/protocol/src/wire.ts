// What goes on a bus: envelopes in msgpack, and the live run's control plane.
export {
  encodeEnvelope,
  decodeEnvelope,
  PROTOCOL_VERSION,
  MAX_MESSAGE_BYTES,
  type Envelope,
  type Decoded,
} from './codec.js';
export {
  controlSubject,
  controlKindSubjects,
  controlSenderSubjects,
  controlSenderOf,
  controlSenderProblem,
  ORCHESTRATOR_SENDER,
  controlWildcard,
  requestInboxPrefix,
  encodeControl,
  decodeControl,
  type ControlMessage,
  type ControlKind,
  type MemberReport,
  type LatencyState,
  type DecodedControl,
  type RunClock,
  type OrchestratorTally,
  type Rejoin,
} from './control.js';
