export { ClaimProtocol, type ClaimEvent, type ClaimDecision, type ClaimProtocolOptions, type ClaimMode as SiteClaimMode, type CopyQueueKind } from './claim-protocol.js';
