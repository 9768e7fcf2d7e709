export * from './local/index.js';
export * from './meta/index.js';
