export * from './messages.js';
export * from './addresses.js';
export { encodeEnvelope, decodeEnvelope, PROTOCOL_VERSION, MAX_MESSAGE_BYTES, type Envelope, type Decoded } from './codec.js';
export { messageProblem, isMessage, messageValidator, CORE_MESSAGE_SHAPES, type FieldRule, type MessageShape, type MessageShapes, type MessageCheck } from './validate-message.js';
export { controlSubject, encodeControl, decodeControl, type ControlMessage, type ControlKind, type MemberReport, type LatencyState, type DecodedControl } from './control.js';
