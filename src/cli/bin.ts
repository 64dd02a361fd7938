// The process entry: run the command line, turn an unexpected failure into one line.
import { main } from './main.js';

main(process.argv).catch((error: unknown) => {
  process.stderr.write(`heritage-api: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
