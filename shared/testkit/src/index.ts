export { startNatsServer, type NatsServerHandle, type NatsServerOptions } from './nats-server.js';
export { natsServerBinary, freePort, startLocalNatsServer, INSTALL_HINT } from '@gridemu/nats-server';
export { needTraces, TEST_TRACE_DIR, type TraceNeed } from './traces.js';
export { schemaProblems } from './json-schema.js';
