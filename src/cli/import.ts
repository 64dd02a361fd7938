import { loadConfig } from '../config.js';
import { describeDatabase } from '../store/open.js';
import { openCatalogueFile } from './catalogue-stream.js';
import { loadCatalogue } from './load.js';
import { seconds, summariseCounts } from './report.js';

export interface ImportOptions {
  db?: string;
  schema?: string;
  maxStringChars?: string;
  maxPositions?: string;
  maxRecordBytes?: string;
}

/**
 * Replace the whole catalogue in one transaction, the file streamed straight into it;
 * a bad file is rolled back and changes nothing.
 */
export async function runImport(file: string, options: ImportOptions): Promise<number> {
  const started = performance.now();
  const { db, schema, ...limits } = options;
  const config = loadConfig({ database: db, databaseSchema: schema, ...limits });
  const result = await loadCatalogue(config, await openCatalogueFile(file));
  if (!result.ok) return 1;
  process.stderr.write(`Imported ${summariseCounts(result.counts)} into ${describeDatabase(config)} in ${seconds(started)}.\n`);
  return 0;
}
