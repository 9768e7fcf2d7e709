import { simulateCommand } from './commands/simulate.js';
import { reportFailure } from './exit-status.js';

/**
 * `gridemu simulate` whole: the command and its error reporting. The build also bundles this file
 * into one script (dist/simulate.bundle.cjs) that main.js runs with a V8 code cache: the error
 * classes must be the bundle's own copies, so the reporting goes in with the command.
 */
export async function runSimulate(argv: string[]): Promise<number> {
  try {
    return await simulateCommand(argv);
  } catch (err) {
    return reportFailure(err);
  }
}
