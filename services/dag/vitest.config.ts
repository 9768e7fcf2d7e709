export { default } from '../../vitest.base.js';
