// A download holds its connection for as long as its client reads (one snapshot, batch by
// batch). On PostgreSQL, downloads take connections from a pool of their own, so that open
// downloads never starve the requests: with PG_POOL_SIZE=1 a request still gets its answer
// while a download's stream is open (before, it waited DB_TIMEOUT_MS for the one connection
// and answered 503).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open.js';
import type { CatalogueStore } from '../../src/store/store.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { onPostgres } from '../support/on-postgres.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';
import { openItemStream } from '../../src/store/ogc/ogc-plans.js';
import { listReads } from '../../src/store/api/api-reads.js';
import { readInline } from '../../src/work/reads.js';

await onPostgres(async () => {
  const catalogue = buildTestCatalogue();
  let database: TestDatabase;
  let store: CatalogueStore;
  before(async () => {
    database = createTestDatabase('postgres');
    await importInto(database.settings, catalogue);
    store = await openStore(loadConfig({ ...database.settings, poolSize: '1', dbTimeoutMs: '800' }, {}), { serving: true });
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  test('with one connection for requests, a read still answers while a download is open, and the download is whole', async () => {
    const stream = await openItemStream(store, 'features', { filter: null, words: null, sortBy: [] }, 2);
    try {
      const batches = stream.batches();
      const first = await batches.next();
      assert.equal(first.done, false);
      const listed = await readInline(store, listReads.features, [{ page: 1, pageSize: 5 }, {}]);
      assert.equal(listed.count, catalogue.features.length);
      assert.equal(listed.page?.rows.length, 5);
      let ids = first.value!.map((row) => row.id);
      for await (const rows of { [Symbol.asyncIterator]: () => batches }) ids = ids.concat(rows.map((row) => row.id));
      assert.deepEqual(ids, catalogue.features.map((f) => f.id).sort((a, b) => a - b));
    } finally {
      await stream.close();
    }
  });
});
