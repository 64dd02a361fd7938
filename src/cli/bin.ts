// The process entry: run the command line, turn an unexpected failure into one line.
import { errorMessage } from '../caught.js';
import { main } from './main.js';

main(process.argv).catch((error: unknown) => {
  process.stderr.write(`heritage-api: ${errorMessage(error)}\n`);
  process.exitCode = 1;
});
