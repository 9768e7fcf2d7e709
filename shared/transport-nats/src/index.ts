export { NatsTransport } from './nats-transport.js';
export { actorSubject, topicSubject, runWildcard, subjectOf } from './subjects.js';
