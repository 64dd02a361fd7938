import { catalogueChunks } from '../catalogue/dump.js';
import { loadConfig } from '../config.js';
import { describeDatabase, openStore } from '../store/open.js';
import { writeOutput } from './io.js';
import { seconds, step, summarise } from './report.js';

export interface ExportOptions {
  db?: string;
  schema?: string;
  out?: string;
}

/** The stored catalogue as a file that imports back to an identical API. */
export async function runExport(options: ExportOptions): Promise<number> {
  const started = performance.now();
  const config = loadConfig({ database: options.db, databaseSchema: options.schema });
  const store = await openStore(config);
  const catalogue = await step(`Reading ${describeDatabase(config)}`, () => store.readCatalogue()).finally(() => store.close());
  await step(`Writing ${options.out ?? 'standard output'}`, () => writeOutput(catalogueChunks(catalogue), options.out));
  process.stderr.write(`Exported ${summarise(catalogue)} in ${seconds(started)}.\n`);
  return 0;
}
