import { loadConfig, type RawSettings } from '../config.js';
import { describeDatabase, isPostgresUrl, openStore } from '../store/open.js';
import { LATEST_MIGRATION } from '../store/postgres/migrations.js';

/** Create or bring up to date the database's tables; `import` does the same by itself. */
export async function runMigrate(settings: RawSettings): Promise<number> {
  const config = loadConfig(settings);
  const store = await openStore(config, { create: true });
  await store.close();
  const version = isPostgresUrl(config.database) ? ` (migration ${LATEST_MIGRATION})` : '';
  process.stderr.write(`${describeDatabase(config)} is up to date${version}.\n`);
  return 0;
}
