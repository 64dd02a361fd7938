// `apply` (issue 22) on the tests' store (test/postgres/apply.test.ts runs it on PostgreSQL):
// every kind of change in every list, checked two independent ways: the stored catalogue
// equals the old one edited by hand (export), and the API serves exactly what an import of
// that edited catalogue serves (pages, details, search, counts, OGC items, tiles). Every
// refusal by its JSON path, with nothing changed; a second apply and a dry run change
// nothing; a running server switches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Catalogue, Feature } from '../src/catalogue/format.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { applyTo, assertSameCatalogue, editedCatalogue, storedCatalogue, storedVersion, type ChangeFileValue } from './support/apply.js';
import { runCli } from './support/cli.js';
import { appOnDatabase, startTestApp, type TestApp } from './support/in-process.js';
import { importInto } from './support/server.js';
import { createTestDatabase } from './support/stores.js';
import { temporaryDir } from './support/temporary.js';

const FORMAT = 'heritage-changes/1';
const old = buildTestCatalogue();
const feature = (id: number) => structuredClone(old.features.find((f) => f.id === id)!);

function newFeature(id: number, changes: Partial<Feature> = {}): Feature {
  const lon = -0.06 - id * 0.0002;
  const ring: [number, number][] = [[lon, 51.52], [lon + 0.0001, 51.52], [lon + 0.0001, 51.5201], [lon, 51.52]];
  return {
    id, feature_type: 'PLACE', b_number: null, b_name: `New place ${id}`, street: 'Brick Lane', postcode: 'E1 6QL',
    address: `Brick Lane, London E1 6QL`, current: null, site: null, categories: [], tags: ['market'],
    search_str: `New place ${id} Brick Lane`, geometry: { type: 'MultiPolygon', coordinates: [[ring]] }, ...changes,
  };
}

/** Every kind of change, per list; each applied to the old catalogue on its own. */
const CHANGES: { name: string; file: ChangeFileValue }[] = [
  {
    name: 'put new records in every list',
    file: {
      format: FORMAT,
      authors: { put: [{ id: 11, username: 'archivist' }] },
      categories: { put: [{ id: 12, name: 'Markets', description: 'Street markets.', thumbnail: 'categories/markets.png' }] },
      sites: { put: [{ id: 13, name: 'Spitalfields Market' }] },
      // Ids below, between and above the stored ones: positions move for the ones after.
      features: { put: [newFeature(2, { categories: [12, 3], site: 13 }), newFeature(40), newFeature(200)] },
      images: { put: [{ id: 1, feature: 200, author: 11, title: 'Stalls at dawn', file: 'uploads/features/200/stalls.jpg', description: 'Saturday', copyright: true, created: '2020-01-04' }] },
      documents: { put: [{ id: 973, feature: 2, author: 2, title: 'The market hall', body: '<p>Rebuilt in <em>1893</em>.</p>', created: '2020-02-02', last_edited: '2020-02-03', published: true }] },
      media: { put: [{ id: 5, feature: 1, author: 11, title: 'Market sounds', url: 'https://example.org/sounds', published: true }] },
    },
  },
  {
    name: 'put replacements in every list',
    file: {
      format: FORMAT,
      authors: { put: [{ id: 5, username: 'zoe-renamed' }] },
      // Found in its features' search text: feature 1 is in it.
      categories: { put: [{ id: 4, name: 'Gasworks', description: '', thumbnail: 'categories/gas.png' }] },
      sites: { put: [{ id: 1, name: 'Royal London' }] },
      // Feature 1's names are in its attachments' search text; feature 5 moves far away.
      features: { put: [{ ...feature(1), b_name: 'Tramway depot', tags: ['trams'] }, { ...feature(5), geometry: newFeature(5).geometry, categories: [3] }] },
      // Image 9 is unpublished, image 8 published; document 971 moves to feature 7.
      images: { put: [{ ...old.images[2]!, published: false }, { ...old.images[1]!, published: true, title: 'Now shown' }] },
      documents: { put: [{ ...old.documents[0]!, feature: 7, title: 'Moved' }] },
      media: { put: [{ ...old.media[0]!, url: 'https://example.org/walk' }] },
    },
  },
  {
    name: 'removals in every list',
    file: {
      format: FORMAT,
      // Author 5's records go too; category 3 and site 1 are dropped from the features using them.
      authors: { remove: [5] },
      categories: { remove: [3] },
      sites: { remove: [1] },
      features: { put: [{ ...feature(1), categories: [4], site: null }, { ...feature(5), site: null }], remove: [89, 3, 45] },
      images: { remove: [8, 9] },
      documents: { remove: [972] },
      media: { remove: [6, 4] },
    },
  },
];

/** Answers that depend on every derived thing: positions, counts, search text, item counts, extents, tiles. */
const URLS = [
  '/api/v1/features/', '/api/v1/features/?page=2', '/api/v1/features/?page=last', '/api/v1/features/?page_size=7&page=4',
  '/api/v1/images/', '/api/v1/documents/', '/api/v1/media/', '/api/v1/features/1/', '/api/v1/features/5/', '/api/v1/features/200/',
  '/api/v1/images/1/', '/api/v1/images/8/', '/api/v1/documents/971/',
  '/api/v1/features/?q=tramway', '/api/v1/features/?q=gasworks', '/api/v1/features/?q=market', '/api/v1/features/?q=industry',
  '/api/v1/features/?q=street', '/api/v1/images/?q=tramway', '/api/v1/images/?q=osborn', '/api/v1/documents/?q=moved',
  '/api/v1/documents/?q=market', '/api/v1/media/?q=walking', '/api/v1/features/?category=4', '/api/v1/features/?tag=trams',
  '/api/v1/features/?bbox=-0.08,51.5,-0.05,51.53', '/api/v1/images/?author=5', '/ogc/collections/features/items?limit=3',
  '/ogc/collections/images/items?limit=2', '/ogc/collections', '/map/config.json',
  '/tiles/features/14/8188/5446.mvt', '/tiles/features/16/32753/21787.mvt', '/tiles/features/12/2047/1361.mvt',
];

/** Status and body; an OGC page's `timeStamp` (the time it was made) left out. */
async function answer(app: TestApp, url: string): Promise<string> {
  const { status, bytes, headers } = await app.request(url);
  if (!String(headers['content-type']).includes('json')) return `${status} ${bytes.toString('base64')}`;
  const { timeStamp: _made, ...body } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  return `${status} ${JSON.stringify(body)}`;
}

async function assertSameAnswers(actual: TestApp, expected: TestApp): Promise<void> {
  for (const url of URLS) assert.equal(await answer(actual, url), await answer(expected, url), url);
}

describe('apply: every kind of change equals the edited catalogue, and serves what its import serves', () => {
  for (const { name, file } of CHANGES) {
    test(name, async () => {
      const database = createTestDatabase();
      const expected = editedCatalogue(old, file);
      let applied: TestApp | undefined;
      let imported: TestApp | undefined;
      try {
        await importInto(database.settings, old);
        const outcome = await applyTo(database.settings, file);
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assertSameCatalogue(await storedCatalogue(database.settings), expected);
        applied = await appOnDatabase(database);
        imported = await startTestApp({ catalogue: expected });
        await assertSameAnswers(applied, imported);
      } finally {
        if (applied) await applied.close();
        else await database.drop();
        await imported?.close();
      }
    });
  }
});
