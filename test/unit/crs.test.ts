// The transformations of src/ogc/crs.ts against PROJ's cs2cs over the whole of Great Britain
// (a grid from the Scilly Isles to Shetland, every 0.25°), not only London: proj4js's tmerc
// (the Poder/Engsager series, PROJ's default) alone, then EPSG:27700 with the Helmert
// EPSG:1314 and EPSG:3857 as the server writes them, each within 1 mm of PROJ; and back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import proj4 from 'proj4';
import { fromCrs84, offeredCrs, toCrs84 } from '../../src/ogc/crs.js';
import { cs2cs, projSkipReason, URI, type XY } from '../support/proj.js';

const GRID: XY[] = [];
for (let lon = -8; lon <= 2; lon += 0.25) for (let lat = 49.75; lat <= 61; lat += 0.25) GRID.push([lon, lat]);

function worst(a: readonly XY[], b: readonly XY[]): number {
  return Math.max(...a.map(([x, y], i) => Math.max(Math.abs(x - b[i]![0]), Math.abs(y - b[i]![1]))));
}

describe('crs.ts against PROJ across Great Britain', { skip: projSkipReason() }, () => {
  test("proj4js's tmerc on Airy equals PROJ's within 1 mm (no datum shift)", async () => {
    const tmerc = '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +a=6377563.396 +rf=299.3249646 +units=m +no_defs';
    const ours = GRID.map((p) => proj4('+proj=longlat +a=6377563.396 +rf=299.3249646 +no_defs', tmerc, [...p]) as XY);
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync('cs2cs', ['-f', '%.6f', '+proj=longlat', '+ellps=airy', '+to', ...tmerc.replace('+a=6377563.396 +rf=299.3249646', '+ellps=airy').split(' ')],
      { input: GRID.map(([x, y]) => `${x} ${y}\n`).join('') }).toString();
    const proj = out.trim().split('\n').map((l) => l.trim().split(/\s+/).slice(0, 2).map(Number) as unknown as XY);
    assert.ok(worst(ours, proj) <= 0.001, `${worst(ours, proj)} m`);
  });

  for (const uri of [URI.epsg27700, URI.epsg3857] as const) {
    test(`${uri}: ${GRID.length} positions within 1 mm of cs2cs, and back within 1e-8°`, async () => {
      const crs = offeredCrs(uri)!;
      const to = fromCrs84(crs);
      const ours = GRID.map(([lon, lat]) => to(lon, lat) as XY);
      const proj = await cs2cs(uri, GRID);
      assert.ok(worst(ours, proj) <= 0.001, `${worst(ours, proj)} m`);
      const back = toCrs84(crs);
      const lonLat = proj.map(([x, y]) => back(x, y) as XY);
      const projBack = await cs2cs(uri, proj, true);
      assert.ok(worst(lonLat, projBack) <= 1e-8, `${worst(lonLat, projBack)}°`);
    });
  }
});
