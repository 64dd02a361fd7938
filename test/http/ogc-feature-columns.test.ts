// What the OGC face shows of a feature from other rows (its published images, documents and
// media counted, its first image, its category ids and tags joined by "; "), kept on the
// feature's row since schema 7 (catalogue-finish.ts featureShownSql): each feature's values
// as this test reads them from the catalogue's records, on two generated catalogues unlike
// the demo; a page read as each feature's stored GeoJSON text (item-texts.ts) holds the bytes a
// page rendered from the columns does, whatever the base URL; and a database made before the
// columns existed gets them when brought up to date.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import { OGC_PROPERTIES } from '../../src/ogc/properties.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { appAfterUpgrade, IN_PROCESS_ORIGIN, startTestApp, type TestApp } from '../support/in-process.js';

const SHOWN = ['image_count', 'document_count', 'media_count', 'thumbnail', 'category_ids', 'tags'];

type Shown = Record<string, string | number | null>;

/** Each feature's shown values, from the records alone: published attachments, the lowest image id first. */
function expectedShown(catalogue: Catalogue): Map<number, Shown> {
  const published = <R extends { feature: number; published: boolean }>(list: readonly R[], id: number) => list.filter((r) => r.published && r.feature === id);
  const shown = new Map<number, Shown>();
  for (const f of catalogue.features) {
    const images = published(catalogue.images, f.id).sort((a, b) => a.id - b.id);
    const file = images[0]?.file;
    shown.set(f.id, {
      image_count: images.length,
      document_count: published(catalogue.documents, f.id).length,
      media_count: published(catalogue.media, f.id).length,
      thumbnail: file === undefined ? null : `${IN_PROCESS_ORIGIN}/media/${file.split('/').map(encodeURIComponent).join('/')}`,
      category_ids: f.categories.join('; '),
      tags: f.tags.join('; '),
    });
  }
  return shown;
}

async function servedShown(app: TestApp): Promise<Map<number, Shown>> {
  const answer = await app.request(`/ogc/collections/features/items?limit=10000&skipGeometry=true&properties=${SHOWN.join(',')}`);
  assert.equal(answer.status, 200);
  const page = answer.json() as { features: { id: number; properties: Shown }[]; links: { rel: string }[] };
  assert.ok(!page.links.some((l) => l.rel === 'next'), 'every feature on one page');
  return new Map(page.features.map((f) => [f.id, f.properties]));
}

function assertShown(served: Map<number, Shown>, catalogue: Catalogue): void {
  const expected = expectedShown(catalogue);
  assert.equal(served.size, expected.size);
  for (const [id, values] of expected) assert.deepEqual(served.get(id), values, `feature ${id}`);
}

const CATALOGUES: [string, () => Catalogue][] = [
  ['the test catalogue', buildTestCatalogue],
  ['a small demo of another seed (other density, names and attachments)', () => generateDemoCatalogue({ scale: 0.1, seed: 23 })],
];

describe('what a page shows of each feature from other rows', () => {
  for (const [name, make] of CATALOGUES) {
    test(name, async () => {
      const catalogue = make();
      assert.ok(catalogue.images.some((i) => !i.published), 'an unpublished image, which is not counted');
      const app = await startTestApp({ catalogue });
      try {
        assertShown(await servedShown(app), catalogue);
      } finally {
        await app.close();
      }
    });
  }
});

describe('a database made before these were kept on the feature row', () => {
  let app: TestApp | undefined;
  after(() => app?.close());

  test('is brought up to date, and shows the same values', async () => {
    const catalogue = buildTestCatalogue();
    const dropped = ['image_count', 'document_count', 'media_count', 'first_image', 'category_list', 'tag_list', 'item_text'].map((c) => `DROP COLUMN ${c}`);
    const upgraded = await appAfterUpgrade(catalogue, {
      sqlite: `${dropped.map((d) => `ALTER TABLE features ${d};`).join(' ')} UPDATE meta SET value = '6' WHERE key = 'schema_version'`,
      postgres: `ALTER TABLE features ${dropped.join(', ')}; ALTER TABLE tiles DROP COLUMN level; DROP TABLE tile_levels; DELETE FROM schema_migrations WHERE version >= 7`,
    });
    app = upgraded;
    assertShown(await servedShown(upgraded), catalogue);
    await assertTextsAsRendered(upgraded);
  });
});

/** A page read as stored text (every property, CRS84: item-texts.ts) holds the features a page rendered from the columns does. */
async function assertTextsAsRendered(app: TestApp): Promise<void> {
  const all = OGC_PROPERTIES.features.map((p) => p.name).join(',');
  const asText = await app.request('/ogc/collections/features/items?limit=10000');
  const rendered = await app.request(`/ogc/collections/features/items?limit=10000&properties=${all}`);
  assert.equal(asText.status, 200);
  assert.equal(rendered.status, 200);
  const features = (answer: typeof asText) => (answer.json() as { features: unknown[] }).features;
  assert.equal(features(asText).length, features(rendered).length);
  assert.equal(JSON.stringify(features(asText)), JSON.stringify(features(rendered)));
  assert.ok(asText.text.includes(JSON.stringify(features(rendered)).slice(1, -1)), 'the same bytes');
}

describe('a page read as stored text is the page rendered from the columns', () => {
  const bases: [string, Record<string, string>][] = [['links from the Host', {}], ['BASE_URL with a path', { baseUrl: 'https://example.org/heritage/survey' }]];
  for (const [name, settings] of bases) {
    test(name, async () => {
      const app = await startTestApp({ catalogue: generateDemoCatalogue({ scale: 0.05, seed: 41 }), settings });
      try {
        await assertTextsAsRendered(app);
      } finally {
        await app.close();
      }
    });
  }
});
