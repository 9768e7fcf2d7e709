export { NatsFrameSplitter, type NatsFrame } from './nats-frames.js';
export { DelayProxy, delayProxyFor, proxyTarget, needsDelayProxies, type DelayProxyOptions } from './delay-proxy.js';
export { terminateNatsTls, type ProxyTls } from './nats-tls-termination.js';
export { ControlBus } from './control-bus.js';
export { closeConnection } from './close-connection.js';
export { connectFirst } from './first-connect.js';
export { liveMembers, liveLocations, memberActors, driverPlan } from './members.js';
export { MemberProcess, type MemberOptions, type MemberOutcome, type MemberPhase } from './member.js';
export {
  leadRun,
  schemeSilence_s,
  type LeaderOptions,
  type LeaderResult,
  type LiveProgress,
  type MemberInfo,
} from './leader.js';
export { liveResults, type LiveSection } from './live-summary.js';
export { startHealthServer, type HealthServer } from './health-server.js';
export { listenOn, respondWithMetrics } from './metrics-http.js';
export { memberMain, type MemberMainOptions } from './member-main.js';
export { takeOverFrom, parseResume, type StandbyResume } from './standby.js';
export { rss_mb, cpu_s } from './process-stats.js';
export { natsFlagOptions, natsConnectOptions, timerSpinOf } from './nats-flags.js';
export { keepsJournal } from './keeps-journal.js';
export {
  splitNatsUrlCredentials,
  describeNatsCredentials,
  shownNatsUrl,
  type NatsUrlCredentials,
} from './nats-url-credentials.js';
export { runCredentials, ORCHESTRATOR, type ProcessCredentials } from './run-credentials.js';
export { warmUp, warmUpJobs, warmUpRun, type WarmUpReport } from './warm-up.js';
export { reliableDelivery } from './reliable-delivery.js';
export { partitionCut } from './partition-cut.js';
export { reportThrottle } from './report-throttle.js';
export { fidelityInputs } from './fidelity-inputs.js';
export { processRegistry, prometheusName, type MetricsSource } from './prometheus-metrics.js';
export {
  judgeFidelity,
  shortestTimescale,
  DEFAULT_GUARD_SHARE,
  type GuardInput,
  type GuardVerdict,
} from './fidelity-guard.js';
export {
  judgeBacklog,
  timerWindowsOf,
  MIN_TIMERS_IN_WINDOW,
  type BacklogInput,
  type BacklogVerdict,
  type TimerWindow,
} from './backlog-windows.js';
export { probeBus, type BusProbe } from './bus-probe.js';
export { feltHop_ms } from './live-summary.js';
export { readResolvedExperiment, writeResolvedExperiment, type ResolvedExperimentFile } from './resolved-experiment.js';
export { deploymentCredentials } from './deployment-credentials.js';
