#!/usr/bin/env node
import { simulateBundle } from './simulate-bundle.js';

// A closed pipe (`gridemu run ... | head`) must not kill a run half way, leaving its processes behind:
// output that cannot be written is dropped, and the run ends and cleans up as usual.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

async function main(argv: string[]): Promise<number> {
  // `simulate`, the command sweeps and scripts run thousands of times, starts from one cached
  // script when the build made it; every other command loads its modules as it needs them.
  const bundle = argv[0] === 'simulate' ? simulateBundle() : undefined;
  if (bundle) return bundle.runSimulate(argv.slice(1));
  return (await import('./dispatch.js')).runCli(argv);
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
