// Both stores draw the same tiles (issue 20): the same catalogue in SQLite and in PostgreSQL,
// a grid of tiles at every zoom from 0 to 22 over the footprints, made on request and at
// import alike; at each tile the same feature ids in each layer and the same geometry. The
// stores share one encoder, so the tiles are compared byte for byte, which is stricter than
// the "within one tile unit".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onBothStores } from '../support/both-stores.js';
import { buildTileCatalogue, decodeLayers, tilePath, type Tile } from '../support/tile-catalogue.js';
import { tileOf } from '../support/tile-math.js';

/** Distinct tiles compared per zoom, spread over the tiles holding a footprint's corner. */
const PER_ZOOM = 40;

function tileGrid(): Tile[] {
  const catalogue = buildTileCatalogue();
  const grid: Tile[] = [];
  for (let z = 0; z <= 22; z++) {
    const tiles = new Map<string, Tile>();
    for (const f of catalogue.features) {
      for (const position of f.geometry.coordinates[0]![0]!) {
        const tile = tileOf(position, z);
        tiles.set(tilePath(tile), tile);
        // A neighbour too, so that tiles reached only through their buffer are compared.
        tiles.set(tilePath({ ...tile, x: tile.x + 1 }), { ...tile, x: tile.x + 1 });
      }
    }
    const all = [...tiles.values()].filter((t) => t.x < 2 ** z);
    grid.push(...Array.from({ length: Math.min(PER_ZOOM, all.length) }, (_, i) => all[Math.floor((i * all.length) / Math.min(PER_ZOOM, all.length))]!));
  }
  return grid;
}

await onBothStores('SQLite and PostgreSQL draw the same tiles', buildTileCatalogue, (apps) => {
  test('SQLite and PostgreSQL give the same tile, byte for byte, over a grid of tiles at every zoom 0–22', async () => {
    const zooms = new Set<number>();
    let [features, points] = [0, 0];
    for (const tile of tileGrid()) {
      const [a, b] = [await apps.sqlite.request(tilePath(tile)), await apps.postgres.request(tilePath(tile))];
      assert.equal(a.status, b.status, tilePath(tile));
      if (a.status === 204) continue;
      assert.equal(a.status, 200, tilePath(tile));
      const [left, right] = [decodeLayers(a.bytes), decodeLayers(b.bytes)];
      // The ids first, for a readable failure; then every byte.
      assert.deepEqual(right.features.map((f) => f.id), left.features.map((f) => f.id), `${tilePath(tile)}: polygons`);
      assert.deepEqual(right.points.map((f) => f.id), left.points.map((f) => f.id), `${tilePath(tile)}: points`);
      assert.ok(a.bytes.equals(b.bytes), `${tilePath(tile)}: bytes`);
      zooms.add(tile.z);
      features += left.features.length;
      points += left.points.length;
    }
    assert.deepEqual([...zooms].sort((x, y) => x - y), Array.from({ length: 23 }, (_, z) => z), 'tiles with something in them at every zoom');
    assert.ok(features > 1000 && points > 100, `${features} polygons and ${points} points compared`);
  });
});
