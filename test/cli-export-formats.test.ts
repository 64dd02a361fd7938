// `export --format geojson|csv|fgb|gpkg [--collection NAME]`: the command line writes the
// same files as the OGC downloads; GDAL reads them back (counts, ids) and the catalogue file
// stays the default format; CSV cells that would start a formula are neutralised.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from './support/catalogue.js';
import { runCli } from './support/cli.js';
import { assertFormulaCells, formulaCatalogue } from './support/csv-cells.js';
import { gdal, gdalSkipReason } from './support/gdal.js';
import { importInto, temporaryDir } from './support/server.js';

const CATALOGUE = buildTestCatalogue();
const publishedIds = (records: readonly { id: number; published: boolean }[]) => records.filter((r) => r.published).map((r) => r.id).sort((a, b) => a - b);
const EXPECTED_IDS: Record<string, number[]> = {
  features: CATALOGUE.features.map((f) => f.id).sort((a, b) => a - b),
  images: publishedIds(CATALOGUE.images),
  documents: publishedIds(CATALOGUE.documents),
  media: publishedIds(CATALOGUE.media),
};

describe('export --format', () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = temporaryDir();
    db = path.join(dir, 'catalogue.db');
    await importInto(db, CATALOGUE);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const format of ['geojson', 'csv', 'fgb', 'gpkg']) {
    for (const collection of ['features', 'images']) {
      // GDAL's GeoJSON reader makes a Feature's id its FID (written back as the Feature's id).
      test(`${format} of ${collection}: GDAL reads every published record's id`, { skip: gdalSkipReason() }, async () => {
        const out = path.join(dir, `${collection}.${format}`);
        const result = await runCli(['export', '--db', db, '--format', format, '--collection', collection, '--out', out]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stderr, new RegExp(`Exported ${EXPECTED_IDS[collection]!.length} ${collection} as ${format}`));
        const args = format === 'csv' ? ['-oo', 'GEOM_POSSIBLE_NAMES=wkt'] : [];
        const json = JSON.parse(await gdal('ogr2ogr', ['-f', 'GeoJSON', ...args, '/vsistdout/', out])) as { features: { id?: number; properties: { id?: unknown } }[] };
        assert.deepEqual(json.features.map((f) => Number(f.properties.id ?? f.id)).sort((a, b) => a - b), EXPECTED_IDS[collection]);
      });
    }
  }

  test('CSV to standard output starts with the header; the default format is still the catalogue file', async () => {
    const csv = await runCli(['export', '--db', db, '--format', 'csv', '--collection', 'media']);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout.split('\r\n')[0], 'id,title,url,author,author_id,feature_id,address,api_url,page_url,wkt,lon,lat');
    const plain = await runCli(['export', '--db', db]);
    assert.equal(JSON.parse(plain.stdout).format, 'heritage-catalogue/1');
  });

  test('CSV: text a spreadsheet would read as a formula gets a leading \' and quotes, as in a download; numbers stay numbers', async () => {
    const formulas = path.join(dir, 'formulas.db');
    await importInto(formulas, formulaCatalogue());
    for (const collection of ['features', 'images'] as const) {
      const csv = await runCli(['export', '--db', formulas, '--format', 'csv', '--collection', collection]);
      assert.equal(csv.code, 0, csv.stderr);
      assertFormulaCells(csv.stdout, collection);
    }
  });

  test('an unknown collection or format is refused with a sentence', async () => {
    const collection = await runCli(['export', '--db', db, '--format', 'csv', '--collection', 'buildings']);
    assert.equal(collection.code, 1);
    assert.match(collection.stderr, /--collection must be one of features, images, documents, media/);
    const format = await runCli(['export', '--db', db, '--format', 'shp']);
    assert.notEqual(format.code, 0);
    assert.match(format.stderr, /shp/);
  });
});
