import { loadConfig, type RawSettings } from '../config.js';
import { describeDatabase } from '../store/open.js';
import { openCatalogueFile } from './catalogue-stream.js';
import { loadCatalogue } from './load.js';
import { seconds, summariseCounts } from './report.js';

/**
 * Replace the whole catalogue in one transaction, the file streamed straight into it;
 * a bad file is rolled back and changes nothing.
 */
export async function runImport(file: string, settings: RawSettings): Promise<number> {
  const started = performance.now();
  const config = loadConfig(settings);
  const result = await loadCatalogue(config, await openCatalogueFile(file));
  if (!result.ok) return 1;
  process.stderr.write(`Imported ${summariseCounts(result.counts)} into ${describeDatabase(config)} in ${seconds(started)}.\n`);
  return 0;
}
