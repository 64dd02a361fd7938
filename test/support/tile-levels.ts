// A tile drawn at one level of detail the plain way, for the unit tests to hold the
// builder and the edit to: every footprint placed at that level (tiles/encode.ts placement),
// each cell keeping its lowest id and its count. And their seeded random numbers.
import { placement, pointFeature, pointValues, polygonFeature, tileBytes, type Cell, type TileFeature } from '../../src/tiles/encode.js';
import type { TileAddress } from '../../src/tiles/grid.js';

export function drawnAt(tile: TileAddress, features: readonly TileFeature[], level: number): Buffer | null {
  const polygons = [];
  const cells = new Map<string, Cell>();
  for (const feature of [...features].sort((a, b) => a.id - b.id)) {
    const place = placement(feature, tile, level);
    if (place?.kind === 'polygon') polygons.push(polygonFeature(feature, place.rings, tile.z));
    else if (place?.kind === 'cell') {
      const cell = cells.get(place.key);
      if (cell) cell.count += 1;
      else cells.set(place.key, { id: feature.id, values: pointValues(feature), at: place.centre.round(), count: 1 });
    }
  }
  return tileBytes(polygons, [...cells.values()].map((cell) => pointFeature(cell, tile.z)));
}

/** mulberry32: the same cases every run. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
