export { startLocalNatsServer, natsServerBinary, freePort, stopProcess, INSTALL_HINT, type LocalNatsServer, type LocalNatsServerOptions, type NatsUser } from './nats-server.js';
