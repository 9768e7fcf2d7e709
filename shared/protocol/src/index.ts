export * from './messages.js';
export * from './addresses.js';
