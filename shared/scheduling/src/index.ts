export * from './local/index.js';
export * from './meta/index.js';
export * from './claims/index.js';
