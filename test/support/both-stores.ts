// The same catalogue in SQLite and in PostgreSQL, each app in process, for the tests that
// compare the two stores' answers. Without PostgreSQL the file's test is skipped with the
// reason, unless HERITAGE_TEST_POSTGRES=required (CI), where that is a failure.
import { after, before, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import type { RawSettings } from '../../src/config.js';
import { startTestApp, type TestApp } from './in-process.js';
import { createTestDatabase, postgresUnavailableReason } from './stores.js';

export interface StorePair {
  /** Set before the tests run. */
  sqlite: TestApp;
  postgres: TestApp;
}

/** Registers `tests` over the pair of apps (started before them, closed after), or the skip. */
export async function onBothStores(what: string, catalogue: () => Catalogue, tests: (apps: StorePair) => void, settings: RawSettings = {}): Promise<void> {
  const reason = await postgresUnavailableReason();
  if (reason !== null && process.env.HERITAGE_TEST_POSTGRES !== 'required') {
    test(`${what}: ${reason}`, { skip: reason }, () => undefined);
    return;
  }
  const apps = {} as StorePair;
  before(async () => {
    if (reason !== null) throw new Error(reason);
    const loaded = catalogue();
    apps.sqlite = await startTestApp({ catalogue: loaded, database: createTestDatabase('sqlite'), settings });
    apps.postgres = await startTestApp({ catalogue: loaded, database: createTestDatabase('postgres'), settings });
  });
  after(async () => {
    await apps.sqlite?.close();
    await apps.postgres?.close();
  });
  tests(apps);
}
