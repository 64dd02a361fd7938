// A collection's extent read in slices of feature ids (PostgreSQL: Dialect.extentSliceIds,
// 50,000 ids a statement, so that a national catalogue's stays within DB_TIMEOUT_MS): the
// features with pictures include three whose ids lie in three slices, far apart and far from
// the rest, so each slice's box must join the others'. Expected boxes computed here from the
// catalogue's own coordinates. On both stores (test/postgres/ twin).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { newFeature } from '../support/apply.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

/** A small square footprint with its south-west corner at (lon, lat). */
function placed(id: number, lon: number, lat: number): Feature {
  const ring: [number, number][] = [[lon, lat], [lon + 0.001, lat], [lon + 0.001, lat + 0.001], [lon, lat + 0.001], [lon, lat]];
  return newFeature(id, { geometry: { type: 'MultiPolygon', coordinates: [[ring]] } });
}

function catalogue(): Catalogue {
  const c = buildTestCatalogue();
  // Ids in the first, second and third slices of 50,000 past the lowest (1): west, north, east.
  const far = [placed(49_000, -3.5, 51.5), placed(99_500, -0.07, 53.25), placed(120_001, 1.75, 51.5)];
  c.features.push(...far);
  const author = c.authors[0]!.id;
  let id = Math.max(...c.images.map((i) => i.id));
  for (const f of far) {
    c.images.push({ id: ++id, feature: f.id, author, title: `Far ${f.id}`, file: `uploads/features/${f.id}/far.jpg`, description: '', copyright: true, created: '2020-01-01', published: true });
  }
  return c;
}

/** The box of the footprints of these features. */
function boxOf(features: readonly Feature[]): number[] {
  const points = features.flatMap((f) => f.geometry.coordinates.flat(2));
  return [Math.min(...points.map((p) => p[0]!)), Math.min(...points.map((p) => p[1]!)), Math.max(...points.map((p) => p[0]!)), Math.max(...points.map((p) => p[1]!))];
}

describe('a collection’s extent over features whose ids span several slices', () => {
  const cat = catalogue();
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue: cat });
  });
  after(() => t.close());

  test('the images’ extent is the box of every feature with a published picture, the far ones included', async () => {
    const pictured = new Set(cat.images.filter((i) => i.published !== false).map((i) => i.feature));
    const expected = boxOf(cat.features.filter((f) => pictured.has(f.id)));
    assert.deepEqual([expected[0], expected[1], expected[2], expected[3]], [-3.5, expected[1], 1.751, 53.251]);
    const answer = await t.request('/ogc/collections/images');
    assert.equal(answer.status, 200);
    const [bbox] = answer.json().extent.spatial.bbox;
    bbox.forEach((value: number, i: number) => assert.ok(Math.abs(value - expected[i]!) < 1e-6, `side ${i}: ${value} against ${expected[i]}`));
  });

  test('the documents’ extent leaves the far features out: none has a document', async () => {
    const documented = new Set(cat.documents.filter((d) => d.published !== false).map((d) => d.feature));
    const expected = boxOf(cat.features.filter((f) => documented.has(f.id)));
    const [bbox] = (await t.request('/ogc/collections/documents')).json().extent.spatial.bbox;
    bbox.forEach((value: number, i: number) => assert.ok(Math.abs(value - expected[i]!) < 1e-6, `side ${i}: ${value} against ${expected[i]}`));
    assert.ok(bbox[0] > -1 && bbox[2] < 1 && bbox[3] < 52, 'no far feature');
  });
});
