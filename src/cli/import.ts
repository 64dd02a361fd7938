import fs from 'node:fs';
import { loadConfig, type Config, type RawSettings } from '../config.js';
import { describeDatabase, isPostgresUrl, openStore } from '../store/open.js';
import { checkCatalogueFile } from './catalogue-stream.js';
import { seconds, step, summariseCounts } from './report.js';

/**
 * Replace the whole catalogue in one transaction, the file streamed straight into it;
 * a bad file is rolled back and changes nothing.
 */
export async function runImport(file: string, settings: RawSettings): Promise<number> {
  const started = performance.now();
  const config = loadConfig(settings);
  const created = !isPostgresUrl(config.database) && !fs.existsSync(config.database);
  const store = await openStore(config, { create: true });
  let result;
  try {
    const load = await store.beginLoad();
    try {
      result = await checkCatalogueFile(file, { label: `Importing into ${describeDatabase(config)}`, sink: load.sink, flush: () => load.flush(), limits: config.catalogueLimits });
      if (result.ok) await step('Finishing (positions, counts, search text)', () => load.commit());
    } finally {
      if (!result?.ok) await load.rollback();
    }
  } finally {
    await store.close();
    if (!result?.ok && created) removeSqliteFiles(config);
  }
  if (!result.ok) return 1;
  process.stderr.write(`Imported ${summariseCounts(result.counts)} into ${describeDatabase(config)} in ${seconds(started)}.\n`);
  return 0;
}

/** A refused import into a database that did not exist leaves no empty database behind. */
function removeSqliteFiles(config: Config): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${config.database}${suffix}`, { force: true });
}
