export { ClaimProtocol, CLAIM_MODES, type ClaimEvent, type ClaimDecision, type ClaimProtocolOptions, type ClaimMode } from './claim-protocol.js';
