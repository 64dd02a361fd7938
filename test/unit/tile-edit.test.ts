// A stored tile edited for a change (tiles/edit.ts) against the tile the encoder makes whole
// from the footprints after it: byte for byte, over seeded random catalogues crowded into a
// few cells of the points grid, many centres on a cell's edge (where a point's rounded
// position cannot tell its cell), footprints moved, added below and above a cell's lowest
// id, removed, recategorised and renamed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MultiPolygon } from '../../src/catalogue/format.js';
import type { Box } from '../../src/search/box.js';
import { TileEdit, firstChangedZoom, type TileChange } from '../../src/tiles/edit.js';
import { FULL_DETAIL, LAST_LEVEL } from '../../src/tiles/budget.js';
import { encodeTile, type TileFeature } from '../../src/tiles/encode.js';
import { drawnAt, random } from '../support/tile-levels.js';
import type { TileAddress } from '../../src/tiles/grid.js';
import { lonLatBox } from '../../src/tiles/tile-geometry.js';

/** A square of `size` tile units centred at (x, y) in the tile's units, in lon/lat (the mercator inverse written out here). */
function square(tile: TileAddress, x: number, y: number, size: number): MultiPolygon {
  const lon = (u: number) => ((tile.x + u / 4096) / 2 ** tile.z) * 360 - 180;
  const lat = (v: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * (tile.y + v / 4096)) / 2 ** tile.z))) * 180) / Math.PI;
  const [x0, x1, y0, y1] = [x - size / 2, x + size / 2, y - size / 2, y + size / 2];
  return { type: 'MultiPolygon', coordinates: [[[[lon(x0), lat(y0)], [lon(x1), lat(y0)], [lon(x1), lat(y1)], [lon(x0), lat(y1)], [lon(x0), lat(y0)]]]] };
}

function makeFeature(next: () => number, tile: TileAddress, id: number): TileFeature {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  // Centres crowd cells 11 and 12 of the 2-pixel grid (32 units), many within half a unit of an edge; a few outside the buffer.
  const along = () => (next() < 0.03 ? pick([-90, 4200]) : 32 * pick([11, 12]) + pick([-0.5, -0.3, -0.01, 0, 0.2, 0.49, 7, 16, 31.7]));
  const category = pick([null, 3, 7]);
  return {
    id, feature_type: pick(['WHITECHAPEL_BUILDING', 'PLACE'] as const), b_name: pick([null, 'Name', 'Other']),
    category: category === null ? null : `Category ${category}`, category_id: category,
    geometry: square(tile, along(), along(), pick([2, 6, 12, 20, 31, 40, 90])),
  };
}

/** A catalogue's footprints and a change of them: moved, removed, added (below and above the others' ids), recategorised, renamed. */
function makeCase(seed: number, tile: TileAddress): { before: TileFeature[]; after: TileFeature[] } {
  const next = random(seed);
  const ids = Array.from({ length: 10 + Math.floor(next() * 100) }, (_, i) => 20 + i);
  const before = ids.map((id) => makeFeature(next, tile, id));
  const after: TileFeature[] = [];
  for (const feature of before) {
    const roll = next();
    if (roll < 0.1) continue;
    const other = makeFeature(next, tile, feature.id);
    if (roll < 0.3) after.push({ ...feature, geometry: other.geometry });
    else if (roll < 0.4) after.push({ ...feature, category: other.category, category_id: other.category_id });
    else if (roll < 0.5) after.push({ ...feature, b_name: other.b_name, feature_type: other.feature_type });
    else after.push(feature);
  }
  for (let i = 0; i < 5; i++) if (next() < 0.5) after.push(makeFeature(next, tile, next() < 0.5 ? 1 + i : 1000 + i));
  return { before, after: after.sort((a, b) => a.id - b.id) };
}

function meets([minX, minY, maxX, maxY]: Box, feature: TileFeature): boolean {
  const [a, b, c, d] = lonLatBox(feature.geometry!);
  return c >= minX && a <= maxX && d >= minY && b <= maxY;
}

/** The edit driven as the store drives it (store/tiles/tile-plans.ts), the catalogue after the change standing for the store. */
function edited(tile: TileAddress, before: TileFeature[], after: TileFeature[], seen: { unsure: number; vacant: number }, level = FULL_DETAIL): Buffer | null {
  const byId = (list: TileFeature[]) => new Map(list.map((f) => [f.id, f]));
  const [old, now] = [byId(before), byId(after)];
  const changes: TileChange[] = [...new Set([...old.keys(), ...now.keys()])]
    .map((id) => ({ before: old.get(id), after: now.get(id) }))
    .filter((change) => firstChangedZoom(change) <= tile.z);
  const edit = new TileEdit(tile, level === FULL_DETAIL ? encodeTile(tile, before).bytes : drawnAt(tile, before, level), changes, level);
  seen.unsure += edit.unsureIds().length;
  edit.settle(edit.unsureIds().map((id) => now.get(id)!));
  for (const { key, box } of edit.vacant()) {
    seen.vacant += 1;
    after.filter((f) => meets(box, f)).some((f) => edit.offer(key, f));
  }
  return edit.finish();
}

for (const tile of [{ z: 14, x: 8188, y: 5446 }, { z: 16, x: 32753, y: 21787 }]) {
  test(`an edited tile at zoom ${tile.z} holds the bytes the encoder makes of the footprints after the change`, () => {
    const seen = { unsure: 0, vacant: 0 };
    for (let seed = 1; seed <= 300; seed++) {
      const { before, after } = makeCase(seed, tile);
      assert.deepEqual(edited(tile, before, after, seen), encodeTile(tile, after).bytes, `seed ${seed}`);
    }
    assert.ok(seen.unsure > 0 && seen.vacant > 0, `the cases reach points on a cell's edge (${seen.unsure}) and cells whose lowest id left (${seen.vacant})`);
  });
}

// A stored tile drawn below full detail keeps every level up to its own (store/tiles/tile-plans.ts): each is edited the same way.
for (const level of [2, 5, LAST_LEVEL]) {
  test(`an edited tile at level of detail ${level} holds the bytes that level's drawing makes of the footprints after the change`, () => {
    const tile = { z: 14, x: 8188, y: 5446 };
    const seen = { unsure: 0, vacant: 0 };
    for (let seed = 1; seed <= 150; seed++) {
      const { before, after } = makeCase(seed, tile);
      assert.deepEqual(edited(tile, before, after, seen, level), drawnAt(tile, after, level), `seed ${seed}`);
    }
    assert.ok(seen.vacant > 0, `the cases reach cells whose lowest id left (${seen.vacant})`);
  });
}

test('a change reaches the zooms that carry what changed: a footprint every zoom, a name only those with full properties', () => {
  const tile = { z: 14, x: 8188, y: 5446 };
  const feature = makeFeature(random(1), tile, 5);
  assert.equal(firstChangedZoom({ before: feature, after: { ...feature, geometry: square(tile, 1, 1, 4) } }), 0);
  assert.equal(firstChangedZoom({ after: feature }), 0);
  assert.equal(firstChangedZoom({ before: feature, after: { ...feature, category_id: 99 } }), 0);
  assert.equal(firstChangedZoom({ before: feature, after: { ...feature, b_name: 'Renamed' } }), 16);
  assert.equal(firstChangedZoom({ before: feature, after: { ...feature, category: 'Renamed' } }), 16);
  assert.equal(firstChangedZoom({ before: feature, after: { ...feature } }), 23);
});
