export {
  startLocalNatsServer,
  natsServerBinary,
  freePort,
  stopProcess,
  INSTALL_HINT,
  type LocalNatsServer,
  type LocalNatsServerOptions,
  type NatsUser,
} from './nats-server.js';
export { makeRunCertificates, type RunCertificates } from './run-certificates.js';
export { programOnPath } from './program-on-path.js';
export { diesWithParent } from './dies-with-parent.js';
