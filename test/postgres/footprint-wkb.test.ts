// PostgreSQL's tiles read each footprint as the WKB of its PostGIS geometry, not its JSON
// text (store/tiles/tile-plans.ts), and must still draw what SQLite draws from the text: so the
// geometry PostGIS made of the text (ST_GeomFromGeoJSON) holds the very same doubles. Checked
// here for every footprint of each tile test catalogue, against the catalogue as generated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { multiPolygonFromWkb } from '../../src/catalogue/wkb.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, withPgClient } from '../support/stores.js';
import { LAYOUTS, generateLayoutCatalogue } from '../support/tile-catalogues.js';

for (const layout of LAYOUTS) {
  test(`postgres: every footprint of the ${layout} catalogue comes back from PostGIS as WKB number for number`, async () => {
    const catalogue = generateLayoutCatalogue({ layout, scale: 0.3, seed: 4 });
    const database = createTestDatabase('postgres');
    try {
      await importInto(database.settings, catalogue);
      const rows = await withPgClient(async (client) => {
        await client.query(`SET search_path = ${database.settings.databaseSchema}, public`);
        return (await client.query<{ id: number; wkb: Buffer }>("SELECT id, ST_AsBinary(geom, 'NDR') AS wkb FROM features ORDER BY id")).rows;
      });
      const expected = [...catalogue.features].sort((a, b) => a.id - b.id);
      assert.equal(rows.length, expected.length);
      rows.forEach((row, i) => assert.deepEqual(multiPolygonFromWkb(row.wkb), JSON.parse(JSON.stringify(expected[i]!.geometry)), `feature ${row.id}`));
    } finally {
      await database.drop();
    }
  });
}
