// Which tiles are made at import: those whose buffered area meets more footprint boxes than
// the limit, or more positions, found top-down.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Box } from '../../src/search/box.js';
import { crowdedTiles } from '../../src/tiles/crowded.js';

// A spot a third of the way across the world both ways (lon -60, and the latitude whose
// mercator row is 1/3): at every zoom it lies a third or two thirds into its tile, far
// from any edge, in tile floor(2^z / 3) / floor(2^z / 3).
const SPOT_LAT = (Math.atan(Math.sinh(Math.PI / 3)) * 180) / Math.PI;
const spot = (n: number): Box[] => Array.from({ length: n }, () => [-60, SPOT_LAT, -60, SPOT_LAT]);
const elsewhere = (n: number): Box[] => Array.from({ length: n }, () => [100, -30, 100.0001, -29.9999]);
const spotTiles = (zooms: number) => Array.from({ length: zooms + 1 }, (_, z) => `${z}/${Math.floor(2 ** z / 3)}/${Math.floor(2 ** z / 3)}`);

const of = (boxes: Box[], positions = 5) => boxes.map((box) => ({ box, positions }));

const CASES: { name: string; boxes: { box: Box; positions: number }[]; limit: number; positions?: number; expected: string[] }[] = [
  { name: 'an empty catalogue', boxes: [], limit: 2, expected: [] },
  { name: 'no more than the limit anywhere', boxes: of(spot(2)), limit: 2, expected: [] },
  { name: 'more than the limit stacked in one spot: its tile at every zoom, down to 22', boxes: of(spot(3)), limit: 2, expected: spotTiles(22) },
  { name: 'two spots far apart, each under the limit: only the tile that holds both', boxes: of([...spot(2), ...elsewhere(2)]), limit: 3, expected: ['0/0/0'] },
  { name: 'few footprints in one spot but more positions than the limit: crowded too', boxes: of(spot(2), 600), limit: 3, positions: 1000, expected: spotTiles(22) },
  { name: 'positions up to the limit: not crowded', boxes: of(spot(2), 500), limit: 3, positions: 1000, expected: [] },
];

for (const { name, boxes, limit, positions = Infinity, expected } of CASES) {
  test(`crowdedTiles: ${name}`, () => {
    assert.deepEqual(crowdedTiles(boxes, { footprints: limit, positions }).map(({ z, x, y }) => `${z}/${x}/${y}`), expected);
  });
}
