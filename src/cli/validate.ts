import { loadConfig, type RawSettings } from '../config.js';
import { checkCatalogueFile } from './catalogue-stream.js';
import { sourceName, summariseCounts } from './report.js';

/** The import's checks without a database, the file streamed. */
export async function runValidate(file: string, settings: RawSettings = {}): Promise<number> {
  const result = await checkCatalogueFile(file, { label: 'Validating', limits: loadConfig(settings).catalogueLimits });
  if (!result.ok) return 1;
  process.stdout.write(`${sourceName(file)} is a valid catalogue: ${summariseCounts(result.counts)}.\n`);
  return 0;
}
