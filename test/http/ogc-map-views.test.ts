// A page of features in a box, both ways the server reads it: a map view (a box of at most
// MAP_VIEW_FOOTPRINTS footprints, answered inline, every match's id read once and counted)
// and a wider box (a costly read in a worker, counted by its own query). The expected
// matches are computed here with turf's boolean-intersects over the catalogue's footprints,
// not with the server's own box test, on a generated catalogue unlike the demo's defaults.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type booleanIntersectsType from '@turf/boolean-intersects';
import type { Geometry } from 'geojson';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import { boundingBox } from '../../src/search/box.js';
import { MAP_VIEW_FOOTPRINTS } from '../../src/store/map-view-reads.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const booleanIntersects = (createRequire(import.meta.url)('@turf/boolean-intersects') as { default: typeof booleanIntersectsType }).default;
const catalogue = generateDemoCatalogue({ scale: 0.6, seed: 31 });

type Box = [number, number, number, number];

function boxPolygon([w, s, e, n]: Box): Geometry {
  return { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] };
}

/** Ids of the footprints meeting the box, ascending, by turf; and how many bounding boxes meet it (the server's candidates). */
function expected(box: Box): { ids: number[]; candidates: number } {
  const polygon = boxPolygon(box);
  const meets = (b: readonly number[]) => b[2]! >= box[0] && b[0]! <= box[2] && b[3]! >= box[1] && b[1]! <= box[3];
  const features = catalogue.features.filter((f) => meets(boundingBox(f.geometry)));
  const ids = features.filter((f) => booleanIntersects(f.geometry as Geometry, polygon)).map((f) => f.id).sort((a, b) => a - b);
  return { ids, candidates: features.length };
}

/** Boxes around a footprint's first vertex, of growing size: from a few streets to the whole catalogue. */
function boxes(): Box[] {
  const [lon, lat] = catalogue.features[Math.floor(catalogue.features.length / 2)]!.geometry.coordinates[0]![0]![0]!;
  const around = (dx: number, dy: number): Box => [lon! - dx, lat! - dy, lon! + dx, lat! + dy];
  return [around(0.0004, 0.0003), around(0.0015, 0.001), around(0.004, 0.003), around(0.02, 0.02), boundingBox({ coordinates: catalogue.features.map((f) => f.geometry.coordinates).flat() }) as Box];
}

describe('a page of features in a box: a map view inline, a wider box as a costly read, the same answers', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue });
  });
  after(() => t.close());

  test('both kinds of box are asked', () => {
    const counts = boxes().map((box) => expected(box).candidates);
    assert.ok(counts.some((n) => n > 0 && n <= MAP_VIEW_FOOTPRINTS), counts.join(', '));
    assert.ok(counts.some((n) => n > MAP_VIEW_FOOTPRINTS), counts.join(', '));
  });

  for (const [i, box] of boxes().entries()) {
    test(`box ${i}: numberMatched, the first page's ids and its next link`, async () => {
      const { ids } = expected(box);
      const answer = await t.request(`/ogc/collections/features/items?limit=40&bbox=${box.join(',')}`);
      assert.equal(answer.status, 200);
      const page = answer.json() as { numberMatched: number; features: { id: number }[]; links: { rel: string; href: string }[] };
      assert.equal(page.numberMatched, ids.length);
      assert.deepEqual(page.features.map((f) => f.id), ids.slice(0, 40));
      const next = page.links.find((l) => l.rel === 'next');
      assert.equal(next !== undefined, ids.length > 40);
      if (next === undefined) return;
      const second = (await t.request(next.href.slice(new URL(next.href).origin.length))).json() as { numberMatched: number; features: { id: number }[] };
      assert.equal(second.numberMatched, ids.length);
      assert.deepEqual(second.features.map((f) => f.id), ids.slice(40, 80));
    });
  }
});
