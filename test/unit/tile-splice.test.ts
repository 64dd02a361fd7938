// A stored tile edited (tiles/splice.ts) decodes to the tile the encoder makes of the
// features it then holds: features taken out, put in, replaced, all, none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import type { MultiPolygon } from '../../src/catalogue/format.js';
import { encodeTile, type TileFeature } from '../../src/tiles/encode.js';
import { spliceTile } from '../../src/tiles/splice.js';

const TILE = { z: 14, x: 8188, y: 5447 };

function feature(id: number, name: string | null = `Building ${id}`): TileFeature {
  const [lon, lat] = [-0.0785 + (id % 10) * 0.0003, 51.5155 + Math.floor(id / 10) * 0.0002];
  const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: [[[[lon, lat], [lon + 0.0001, lat], [lon + 0.0001, lat + 0.0001], [lon, lat]]]] };
  return { id, feature_type: id % 2 ? 'PLACE' : 'WHITECHAPEL_BUILDING', b_name: name, category: id % 3 ? 'Pubs' : null, category_id: id % 3 ? 3 : null, geometry };
}

const all = Array.from({ length: 30 }, (_, i) => feature(i + 1));
const encode = (features: TileFeature[]) => encodeTile(TILE, features);

/** A tile as a reader sees it: layer, extent, and each feature's id, properties and geometry. */
function decoded(bytes: Buffer | null): unknown {
  if (bytes === null) return null;
  const tile = new VectorTile(new PbfReader(bytes));
  const layer = tile.layers['features']!;
  const features = Array.from({ length: layer.length }, (_, i) => layer.feature(i));
  return { layers: Object.keys(tile.layers), extent: layer.extent, features: features.map((f) => ({ id: f.id, type: f.type, properties: f.properties, geometry: f.loadGeometry() })) };
}

const CASES: { name: string; removed: number[]; added: TileFeature[]; expected: TileFeature[] }[] = [
  { name: 'some taken out', removed: [2, 17], added: [], expected: all.filter((f) => f.id !== 2 && f.id !== 17) },
  { name: 'one put in between', removed: [], added: [feature(100)], expected: [...all, feature(100)] },
  { name: 'replaced, with a name and a value no other feature has', removed: [5, 6], added: [feature(5, 'Unique'), feature(6, null)], expected: all.map((f) => (f.id === 5 ? feature(5, 'Unique') : f.id === 6 ? feature(6, null) : f)) },
  { name: 'all taken out', removed: all.map((f) => f.id), added: [], expected: [] },
  { name: 'an id taken out that is not there', removed: [999], added: [], expected: all },
];

test('splice: nothing removed, nothing added: the same bytes', () => {
  assert.deepEqual(spliceTile(encode(all), new Set(), null), encode(all));
});

for (const { name, removed, added, expected } of CASES) {
  test(`splice: ${name}`, () => {
    const spliced = spliceTile(encode(all), new Set(removed), encode(added));
    assert.deepEqual(decoded(spliced), decoded(encode([...expected].sort((a, b) => a.id - b.id))));
  });
}

test('splice: an empty stored tile takes what is added', () => {
  assert.deepEqual(decoded(spliceTile(null, new Set([1]), encode([feature(1)]))), decoded(encode([feature(1)])));
  assert.equal(spliceTile(null, new Set(), null), null);
});
