// The collections' extents a server keeps for the catalogue version they were read at
// (src/work/guarded-store.ts, as store/ogc/ogc-reads.ts declares them): asked again, they are answered without a turn of the reads
// (taken here, so that a read would wait and be refused); a new catalogue is read anew.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open.js';
import type { CatalogueStore } from '../../src/store/store.js';
import { guardStore, type GuardedStore } from '../../src/work/guarded-store.js';
import { WORK_REGISTRY } from '../../src/reads.js';
import { askExtents } from '../../src/store/ogc/ogc-reads.js';
import { buildTestCatalogue } from './catalogue.js';
import { importInto } from './server.js';
import { createTestDatabase, type StoreKind, type TestDatabase } from './stores.js';

export function keptExtentsSuite(kind: StoreKind): void {
  let database: TestDatabase;
  let store: CatalogueStore;
  let guarded: GuardedStore;
  before(async () => {
    database = createTestDatabase(kind);
    await importInto(database.settings, buildTestCatalogue());
    // One read at a time, and a deadline long enough for a first read on a busy machine: a read that must wait for the turn held below is refused after 5 s.
    const config = loadConfig(database.settings, { WORK_READS: '1', DB_TIMEOUT_MS: '1000' });
    store = await openStore(config);
    guarded = guardStore(store, config, WORK_REGISTRY);
  });
  after(async () => {
    await guarded.closeWorkers();
    await store.close();
    await database.drop();
  });

  test(`${kind}: the extents are read once per catalogue version, and anew after an import`, async () => {
    const first = await askExtents(guarded);
    const release = await guarded.gates.reads.enter();
    try {
      assert.deepEqual(await askExtents(guarded), first, 'asked again while every read turn is taken: answered as kept');
    } finally {
      release();
    }
    const moved = buildTestCatalogue();
    // One footprint far to the west: the features' extent must follow it.
    moved.features[0]!.geometry = { type: 'MultiPolygon', coordinates: [[[[-3, 50], [-2.9, 50], [-2.9, 50.1], [-3, 50]]]] };
    await importInto(database.settings, moved);
    const second = await askExtents(guarded);
    assert.ok(second.version > first.version, 'a new catalogue version');
    assert.equal(second.extents.features.bbox?.[0], -3);
    assert.notEqual(first.extents.features.bbox?.[0], -3);
  });
}
