// `serve --init-demo`'s first run, in a module of its own: the generator and the streamed
// checks (ajv, stream-json) are loaded only when the database is missing, not by every start.
import type { Config } from '../config.js';
import { demoRecords, INIT_DEMO } from '../demo/demo.js';
import { demoFileChunks } from '../demo/file.js';
import { notingPictures, writePictures, type PictureNote } from '../demo/pictures.js';
import { textSource } from './catalogue-stream.js';
import { CliError } from './io.js';
import { loadCatalogue } from './load.js';
import { step, summariseCounts } from './report.js';

/**
 * The demo catalogue into the database through import's path (its text checked as it
 * streams into the store), and a picture for each of its media paths under mediaRoot.
 */
export async function buildDemoDatabase(config: Config, mediaRoot: string): Promise<void> {
  process.stderr.write(`${config.database} does not exist yet: building the demo catalogue into it.\n`);
  const pictures: PictureNote[] = [];
  const text = demoFileChunks(notingPictures(demoRecords(INIT_DEMO), pictures));
  const result = await loadCatalogue(config, textSource('the demo catalogue', text));
  if (!result.ok) throw new CliError('the demo catalogue was refused (a bug in the generator: its problems are listed above)');
  await step(`Writing its pictures under ${mediaRoot}`, () => writePictures(pictures, mediaRoot));
  process.stderr.write(`Demo catalogue ready: ${summariseCounts(result.counts)}.\n`);
}
