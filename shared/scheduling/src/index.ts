export * from './local/index.js';
