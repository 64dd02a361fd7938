import { loadConfig } from '../config.js';
import { describeDatabase, openStore } from '../store/open.js';
import { readCatalogueFile } from './catalogue-file.js';
import { seconds, step, summarise } from './report.js';

export interface ImportOptions {
  db?: string;
  schema?: string;
}

/** Replace the whole catalogue in one transaction; a bad file changes nothing. */
export async function runImport(file: string, options: ImportOptions): Promise<number> {
  const started = performance.now();
  const config = loadConfig({ database: options.db, databaseSchema: options.schema });
  const catalogue = await readCatalogueFile(file);
  if (catalogue === null) return 1;
  const store = await openStore(config, { create: true });
  try {
    await step(`Writing ${describeDatabase(config)}`, () => store.replaceCatalogue(catalogue));
  } finally {
    await store.close();
  }
  process.stderr.write(`Imported ${summarise(catalogue)} into ${describeDatabase(config)} in ${seconds(started)}.\n`);
  return 0;
}
