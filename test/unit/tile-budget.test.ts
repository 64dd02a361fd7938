// The one-pass TileBuilder (tiles/encode.ts) against the budget's definition written out
// plainly (tiles/budget.ts): each level's tile drawn whole from every footprint's placement
// at that level, and the first whose bytes fit the budget is the tile. Seeded random tiles of
// many-sided footprints from a few units to a whole tile across, dense enough that most are
// over budget at full detail; given in any order, the builder's bytes and level are the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MultiPolygon } from '../../src/catalogue/format.js';
import { DETAIL_LEVELS, FULL_DETAIL, TILE_BUDGET_BYTES } from '../../src/tiles/budget.js';
import { TileBuilder, encodeTile, leastLoweredBy, type TileFeature } from '../../src/tiles/encode.js';
import { drawnAt as drawnAtTile, random } from '../support/tile-levels.js';
import type { TileAddress } from '../../src/tiles/grid.js';

const TILE: TileAddress = { z: 15, x: 16376, y: 10894 };
const drawnAt = (features: TileFeature[], level: number) => drawnAtTile(TILE, features, level);

/** A polygon of `corners` around (x, y) in the tile's units, `size` units across, in lon/lat. */
function footprint(next: () => number, x: number, y: number, size: number, corners: number): MultiPolygon {
  const lon = (u: number) => ((TILE.x + u / 4096) / 2 ** TILE.z) * 360 - 180;
  const lat = (v: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * (TILE.y + v / 4096)) / 2 ** TILE.z))) * 180) / Math.PI;
  const ring = Array.from({ length: corners }, (_, i) => {
    const angle = ((i + next() * 0.8) / corners) * 2 * Math.PI;
    const r = (size / 2) * (0.6 + 0.4 * next());
    return [lon(x + Math.cos(angle) * r), lat(y + Math.sin(angle) * r)] as [number, number];
  });
  return { type: 'MultiPolygon', coordinates: [[[...ring, ring[0]!]]] };
}

function makeTile(seed: number): TileFeature[] {
  const next = random(seed);
  const count = 300 + Math.floor(next() * 2500);
  return Array.from({ length: count }, (_, i) => ({
    id: 1 + i * 3, feature_type: 'WHITECHAPEL_BUILDING' as const, b_name: next() < 0.5 ? `Building ${i}` : null, category: null, category_id: next() < 0.5 ? 4 : null,
    geometry: footprint(next, -100 + next() * 4300, -100 + next() * 4300, 2 ** (2 + next() * 8), 6 + Math.floor(next() * 40)),
  }));
}

test('the builder gives the first level whose tile fits the budget, in one pass, whatever the order of its footprints', () => {
  const levels = new Set<number>();
  for (let seed = 1; seed <= 12; seed++) {
    const features = makeTile(seed);
    const built = encodeTile(TILE, features);
    const expected = DETAIL_LEVELS.findIndex((_, level) => (drawnAt(features, level)?.length ?? 0) <= TILE_BUDGET_BYTES);
    assert.equal(built.level, expected, `seed ${seed}`);
    assert.deepEqual(built.bytes, drawnAt(features, expected), `seed ${seed}`);
    assert.ok(built.bytes!.length <= TILE_BUDGET_BYTES);
    // Reversed, and odd positions before even ones: the order a store's batches may bring.
    for (const order of [[...features].reverse(), [...features.filter((_, i) => i % 2), ...features.filter((_, i) => !(i % 2))]]) {
      assert.deepEqual(encodeTile(TILE, order), built, `seed ${seed}, reordered`);
    }
    levels.add(built.level);
  }
  assert.ok(levels.has(FULL_DETAIL) && levels.size >= 3, `the cases reach several levels: ${[...levels]}`);
});

test('a tile under budget at full detail is drawn at full detail', () => {
  const features = makeTile(3).slice(0, 150);
  const built = encodeTile(TILE, features);
  assert.equal(built.level, FULL_DETAIL);
  assert.deepEqual(built.bytes, drawnAt(features, FULL_DETAIL));
});

test('a tile kept with its levels (a stored tile) is the same, each level before it kept as drawn or as a bound of its bytes, over budget either way', () => {
  for (const seed of [2, 5, 9]) {
    const features = makeTile(seed);
    const builder = new TileBuilder(TILE, true);
    for (const feature of features) builder.add(feature);
    const kept = builder.finish();
    const { bytes, level } = encodeTile(TILE, features);
    assert.deepEqual([kept.bytes, kept.level], [bytes, level], `seed ${seed}`);
    assert.equal(kept.lower!.length, level);
    kept.lower!.forEach((lower, k) => {
      const drawn = drawnAt(features, k)!;
      if ('bytes' in lower) assert.deepEqual(lower.bytes, drawn, `seed ${seed}, level ${k}`);
      else assert.ok(lower.least <= drawn.length, `seed ${seed}, level ${k}: ${lower.least} is no bound of ${drawn.length} bytes`);
      assert.ok(('bytes' in lower ? lower.bytes.length : lower.least) > TILE_BUDGET_BYTES);
    });
  }
});

test("a level kept as a bound stays a bound of its bytes after a change, lowered by what the changed footprints may take", () => {
  let checked = 0;
  for (const seed of [4, 7, 11]) {
    const before = makeTile(seed);
    const next = random(seed * 31);
    // Footprints removed, moved (another's shape) and added.
    const after = before.filter(() => next() > 0.05).map((f, i, all) => (next() < 0.05 ? { ...f, geometry: all[(i + 7) % all.length]!.geometry } : f));
    after.push(...makeTile(seed + 100).slice(0, 60).map((f) => ({ ...f, id: f.id + 100_000 })));
    const [old, now] = [new Map(before.map((f) => [f.id, f])), new Map(after.map((f) => [f.id, f]))];
    const changes = [...new Set([...old.keys(), ...now.keys()])].map((id) => ({ before: old.get(id), after: now.get(id) })).filter(({ before: b, after: a }) => b !== a);
    const builder = new TileBuilder(TILE, true);
    for (const feature of before) builder.add(feature);
    builder.finish().lower!.forEach((kept, level) => {
      if (!('least' in kept)) return;
      const bound = kept.least - changes.reduce((sum, c) => sum + leastLoweredBy(c.before, c.after, TILE, level), 0);
      assert.ok(bound <= drawnAt(after, level)!.length, `seed ${seed}, level ${level}: ${bound} over ${drawnAt(after, level)!.length} bytes`);
      checked += 1;
    });
  }
  assert.ok(checked > 0);
});
