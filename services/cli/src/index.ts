export { renderSummary } from './summary-table.js';
