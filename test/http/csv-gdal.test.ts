// The GIS page's command (docs/gis.md) reading a CSV download with GDAL (real ogr2ogr, Debian's gdal-bin): typed
// columns and the CRS, which a CSV cannot carry. On npm start's demo catalogue (the test
// catalogue has no year on the footprints it publishes); expected values from its records.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDemoCatalogue, INIT_DEMO } from '../../src/demo/demo.js';
import { docPages } from '../support/docs.js';
import { gdal, gdalSkipReason, ogrinfoFields } from '../support/gdal.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const CATALOGUE = generateDemoCatalogue(INIT_DEMO);

/** The docs' ogr2ogr line that reads features.csv, as its arguments (it has no quoting). */
function readmeCommand(): string[] {
  const line = docPages().flatMap((page) => page.text.split('\n')).find((l) => l.startsWith('ogr2ogr ') && / features\.csv /.test(l));
  assert.ok(line, 'the docs show an ogr2ogr command reading features.csv');
  return line.split(/\s+/).slice(1);
}

let server: TestServer;
let dir: string;
before(async () => {
  server = await startTestServer({ catalogue: CATALOGUE });
  dir = temporaryDir();
});
after(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a CSV download read by GDAL as the docs say', { skip: gdalSkipReason() }, () => {
  test('ogr2ogr gives integer and real columns, CRS84 (longitude first) and every footprint', async () => {
    const response = await fetch(`${server.origin}/ogc/collections/features/items?f=csv`);
    assert.equal(response.status, 200);
    fs.writeFileSync(path.join(dir, 'features.csv'), Buffer.from(await response.arrayBuffer()));
    const args = readmeCommand();
    const output = args[args.indexOf('GPKG') + 1]!;
    await gdal('ogr2ogr', args.map((a) => (a.endsWith('.csv') || a.endsWith('.gpkg') ? path.join(dir, a) : a)));
    const info = await gdal('ogrinfo', ['-ro', '-so', '-al', path.join(dir, output)]);
    const fields = ogrinfoFields(info);
    for (const name of ['id', 'current', 'image_count', 'document_count', 'media_count']) assert.equal(fields.get(name), 'Integer', name);
    for (const name of ['lon', 'lat']) assert.equal(fields.get(name), 'Real', name);
    assert.equal(fields.get('street'), 'String');
    assert.match(info, /^Geometry: Multi Polygon$/m);
    assert.match(info, /^GEOGCRS\["WGS 84/m);
    assert.match(info, /^Data axis to CRS axis mapping: 1,2$/m);
    assert.equal(/^Feature Count: (\d+)$/m.exec(info)?.[1], String(CATALOGUE.features.length));
    // The extent is the footprints' own, longitude first: the geometry was read from the wkt column.
    const points = CATALOGUE.features.flatMap((f) => f.geometry.coordinates.flat(2));
    const expected = [Math.min(...points.map((p) => p[0]!)), Math.min(...points.map((p) => p[1]!)), Math.max(...points.map((p) => p[0]!)), Math.max(...points.map((p) => p[1]!))];
    const extent = /^Extent: \(([-\d.]+), ([-\d.]+)\) - \(([-\d.]+), ([-\d.]+)\)$/m.exec(info)!.slice(1).map(Number);
    extent.forEach((value, i) => assert.ok(Math.abs(value - expected[i]!) < 1e-6, `extent ${extent} against ${expected}`));
  });
});
