// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Scheduling policies and actors must be deterministic and free of I/O: everything that touches
// the outside world (NATS, timers, the clock, files, processes) comes in through the runtime.
const impureModules = {
  patterns: [
    { group: ['node:*'], message: 'Policies and actors are pure: no Node built-ins (STYLE.md 6).' },
    {
      group: [
        'fs',
        'fs/*',
        'net',
        'http',
        'https',
        'child_process',
        'timers',
        'timers/*',
        'worker_threads',
        'os',
        'process',
        'dgram',
        'readline',
        'zlib',
      ],
      message: 'Policies and actors are pure: no I/O modules.',
    },
    {
      group: ['nats', 'nats/*', '@nats-io/*', 'pino', 'prom-client', 'p-queue'],
      message: 'Transport, logging and metrics belong to the runtimes and services.',
    },
  ],
};
const impureGlobals = [
  { name: 'setTimeout', message: 'Use ctx.schedule: timers belong to the runtime.' },
  { name: 'setInterval', message: 'Use ctx.schedule: timers belong to the runtime.' },
  { name: 'setImmediate', message: 'Use ctx.schedule: timers belong to the runtime.' },
  { name: 'process', message: 'No process access in policies or actors.' },
  { name: 'fetch', message: 'No I/O in policies or actors.' },
  { name: 'performance', message: 'Use ctx.now(): the clock belongs to the runtime.' },
];
const impureSyntax = [
  {
    selector: "MemberExpression[object.name='Math'][property.name='random']",
    message: 'Use the seeded RNG passed in (ctx.rng).',
  },
  { selector: "NewExpression[callee.name='Date']", message: 'Use ctx.now(): the clock belongs to the runtime.' },
  {
    selector: "MemberExpression[object.name='Date'][property.name='now']",
    message: 'Use ctx.now(): the clock belongs to the runtime.',
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/scheduling/src/**/*.ts', '**/actors/src/**/*.ts', '**/schemes/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', impureModules],
      'no-restricted-globals': ['error', ...impureGlobals],
      'no-restricted-syntax': ['error', ...impureSyntax],
    },
  },
  {
    // The runtime core knows no NATS: the live transport is @gridemu/transport-nats (STYLE.md 1).
    files: ['**/runtime/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['nats', 'nats/*', '@nats-io/*'],
              message: 'The runtime core depends on the Transport interface, not on NATS.',
            },
          ],
        },
      ],
    },
  },
);
