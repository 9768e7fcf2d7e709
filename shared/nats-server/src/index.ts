export { startLocalNatsServer, natsServerBinary, freePort, stopProcess, INSTALL_HINT, type LocalNatsServer } from './nats-server.js';
