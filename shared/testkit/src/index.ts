export { startNatsServer, natsServerBinary, freePort, INSTALL_HINT, type NatsServerHandle, type NatsServerOptions } from './nats-server.js';
