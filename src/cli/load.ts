// The one way a catalogue goes into a store, for `import` and `serve --init-demo` alike: its
// text streamed through every check into one transaction. A refused file changes nothing,
// and leaves no new, empty SQLite file behind.
import fs from 'node:fs';
import type { CheckResult } from '../catalogue/checker.js';
import type { Config } from '../config.js';
import type { CatalogueLoad, CatalogueStore } from '../store/store.js';
import { describeDatabase, isPostgresUrl, openStore } from '../store/open.js';
import { checkCatalogueSource, type CatalogueSource } from './catalogue-stream.js';
import { StepDisplay } from './report.js';

/** Replaces the catalogue of the configured database with the source's, or refuses it. */
export async function loadCatalogue(config: Config, source: CatalogueSource): Promise<CheckResult> {
  try {
    return await loadIntoDatabase(config, source);
  } finally {
    // Not read to its end when the store refuses first (a replica, a database it cannot open).
    await source.close();
  }
}

async function loadIntoDatabase(config: Config, source: CatalogueSource): Promise<CheckResult> {
  const created = !isPostgresUrl(config.database) && !fs.existsSync(config.database);
  const store = await openStore(config, { create: true });
  let result: CheckResult | undefined;
  try {
    result = await loadInto(store, source, config);
  } finally {
    await store.close();
    if (!result?.ok && created) removeSqliteFiles(config);
  }
  return result;
}

async function loadInto(store: CatalogueStore, source: CatalogueSource, config: Config): Promise<CheckResult> {
  const load = await store.beginLoad();
  let result: CheckResult | undefined;
  try {
    // The reading's estimate is of the reading only: finishing has its own line after it.
    const label = `Reading into ${describeDatabase(config)}`;
    result = await checkCatalogueSource(source, { label, sink: load.sink, flush: () => load.flush(), limits: config.catalogueLimits });
    if (result.ok) await finish(load);
  } finally {
    if (!result?.ok) await load.rollback();
  }
  return result;
}

async function finish(load: CatalogueLoad): Promise<void> {
  const display = new StepDisplay('Finishing');
  try {
    await load.commit(display.update);
  } finally {
    display.finish();
  }
}

function removeSqliteFiles(config: Config): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${config.database}${suffix}`, { force: true });
}
