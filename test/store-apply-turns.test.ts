// Changes applied at once to one store (on PostgreSQL: the twin in test/postgres/): every one
// is taken, each its own catalogue version. On SQLite each apply holds its transaction across
// awaits on the store's one connection, so applies started together must take turns there.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { emptyChangeSet } from '../src/changes/format.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import type { CatalogueStore } from '../src/store/store.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { importInto, TEST_DEFAULTS } from './support/server.js';
import { createTestDatabase, type TestDatabase } from './support/stores.js';

let database: TestDatabase;
let store: CatalogueStore;

before(async () => {
  database = createTestDatabase();
  await importInto(database.settings, buildTestCatalogue());
  store = await openStore(loadConfig({ ...TEST_DEFAULTS, ...database.settings, logLevel: 'silent' }, {}));
});
after(async () => {
  await store?.close();
  await database?.drop();
});

test('eight changes applied at once are all taken, each a version of its own', async () => {
  const before = await store.catalogueVersion();
  const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => {
    const changes = emptyChangeSet();
    changes.sites.put.push({ id: 100 + i, name: `Site made at once ${i}` });
    return store.applyChanges(changes);
  }));
  const versions = outcomes.map((o) => (o.ok ? o.version : null));
  assert.deepEqual([...versions].sort((a, b) => (a ?? 0) - (b ?? 0)), Array.from({ length: 8 }, (_, i) => before + 1 + i));
  assert.equal(await store.catalogueVersion(), before + 8);
});
