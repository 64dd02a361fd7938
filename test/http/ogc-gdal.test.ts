// Real GIS clients against a listening /ogc/: GDAL's OAPIF driver (ogrinfo, ogr2ogr; Debian's
// gdal-bin 3.6 in CI) and the npm client @camptocamp/ogc-client. Every expected value is
// computed from the test catalogue's records; the requests GDAL makes are read from the
// server's own socket.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OgcApiEndpoint } from '@camptocamp/ogc-client';
import Database from 'better-sqlite3';
import type { Catalogue, Feature, MultiPolygon } from '../../src/catalogue/format.js';
import { buildTestCatalogue, FEATURE_COUNT } from '../support/catalogue.js';
import { gdal, gdalSkipReason, gpkgMultiPolygon, logRequests, ogrinfoFields, type LoggedRequest } from '../support/gdal.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

/**
 * The test catalogue with years only on features past GDAL's first page (its page of 10 holds
 * ids 1 to 19): only the item schema can make `current` an integer column.
 */
function catalogue(): Catalogue {
  const c = buildTestCatalogue();
  for (const f of c.features) f.current = f.id > 20 && f.id % 4 === 1 ? 1800 + f.id : null;
  return c;
}

const CATALOGUE = catalogue();
const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;
const published = <T extends { published: boolean }>(records: readonly T[]) => records.filter((r) => r.published);
const mediaUrl = (origin: string, file: string) => `${origin}/media/${file.split('/').map(encodeURIComponent).join('/')}`;
const featureOf = (id: number): Feature => CATALOGUE.features.find((f) => f.id === id)!;

function expectedFeatures(origin: string) {
  return [...CATALOGUE.features].sort(byId).map((f) => {
    const images = published(CATALOGUE.images).filter((i) => i.feature === f.id).sort(byId);
    return {
      id: f.id,
      feature_type: f.feature_type,
      b_number: f.b_number,
      b_name: f.b_name,
      street: f.street,
      postcode: f.postcode,
      address: f.address,
      current: f.current,
      site_id: f.site,
      site_name: CATALOGUE.sites.find((s) => s.id === f.site)?.name ?? null,
      categories: f.categories.map((id) => CATALOGUE.categories.find((c) => c.id === id)!.name).join('; '),
      category_ids: f.categories.join('; '),
      tags: f.tags.join('; '),
      image_count: images.length,
      document_count: published(CATALOGUE.documents).filter((d) => d.feature === f.id).length,
      media_count: published(CATALOGUE.media).filter((m) => m.feature === f.id).length,
      thumbnail: images[0] === undefined ? null : mediaUrl(origin, images[0].file),
      api_url: `${origin}/api/v1/features/${f.id}/`,
      page_url: `${origin}/ogc/collections/features/items/${f.id}?f=html`,
    };
  });
}

function expectedImages(origin: string) {
  return published(CATALOGUE.images).sort(byId).map((i) => ({
    id: i.id,
    title: i.title,
    description: i.description,
    copyright: i.copyright,
    created: i.created,
    author: CATALOGUE.authors.find((a) => a.id === i.author)!.username,
    author_id: i.author,
    feature_id: i.feature,
    address: featureOf(i.feature).address,
    file_url: mediaUrl(origin, i.file),
    api_url: `${origin}/api/v1/images/${i.id}/`,
    page_url: `${origin}/ogc/collections/images/items/${i.id}?f=html`,
  }));
}

/** The columns GDAL must make of each layer, as ogrinfo prints them. */
const FIELD_TYPES: Record<string, [string, string][]> = {
  features: [
    ['id', 'Integer'], ['feature_type', 'String'], ['b_number', 'String'], ['b_name', 'String'], ['street', 'String'],
    ['postcode', 'String'], ['address', 'String'], ['current', 'Integer'], ['site_id', 'Integer'], ['site_name', 'String'],
    ['categories', 'String'], ['category_ids', 'String'], ['tags', 'String'], ['image_count', 'Integer'],
    ['document_count', 'Integer'], ['media_count', 'Integer'], ['thumbnail', 'String'], ['api_url', 'String'], ['page_url', 'String'],
  ],
  images: [
    ['id', 'Integer'], ['title', 'String'], ['description', 'String'], ['copyright', 'Integer(Boolean)'], ['created', 'Date'],
    ['author', 'String'], ['author_id', 'Integer'], ['feature_id', 'Integer'], ['address', 'String'], ['file_url', 'String'], ['api_url', 'String'], ['page_url', 'String'],
  ],
  documents: [
    ['id', 'Integer'], ['title', 'String'], ['body_html', 'String'], ['created', 'Date'], ['last_edited', 'Date'], ['author', 'String'],
    ['author_id', 'Integer'], ['feature_id', 'Integer'], ['address', 'String'], ['text', 'String'], ['api_url', 'String'], ['page_url', 'String'],
  ],
  media: [
    ['id', 'Integer'], ['title', 'String'], ['url', 'String'], ['author', 'String'], ['author_id', 'Integer'],
    ['feature_id', 'Integer'], ['address', 'String'], ['api_url', 'String'], ['page_url', 'String'],
  ],
};

const EXPECTED_COUNTS: Record<string, number> = {
  features: CATALOGUE.features.length,
  images: published(CATALOGUE.images).length,
  documents: published(CATALOGUE.documents).length,
  media: published(CATALOGUE.media).length,
};

function envelope(geometry: MultiPolygon): [number, number, number, number] {
  const points = geometry.coordinates.flat(2);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const itemsRequests = (log: readonly LoggedRequest[], collection: string) =>
  log.filter((r) => r.url.startsWith(`/ogc/collections/${collection}/items`)).map((r) => new URL(r.url, 'http://x'));

let server: TestServer;
let dir: string;
let log: LoggedRequest[];

before(async () => {
  assert.ok(CATALOGUE.features.length === FEATURE_COUNT);
  server = await startTestServer({ catalogue: catalogue() });
  log = logRequests(server);
  dir = temporaryDir();
});

after(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const gdalSkip = gdalSkipReason();

describe('GDAL (OAPIF driver)', { skip: gdalSkip }, () => {
  const source = () => `OAPIF:${server.origin}/ogc`;

  test('ogrinfo lists the four collections as multipolygon layers, reading /ogc/collections, then the GeoJSON schema and a first page of 10', async () => {
    log.length = 0;
    const out = await gdal('ogrinfo', ['-ro', '-so', source()]);
    const layers = [...out.matchAll(/^\d+: (\w+) \(title: [^)]*\) \(([^)]*)\)$/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(layers, ['features', 'images', 'documents', 'media'].map((name) => [name, 'Multi Polygon']));
    const layerUrls = (name: string) => [`/ogc/collections/${name}/feature-schema`, `/ogc/collections/${name}/items?limit=10`];
    assert.deepEqual(log.map((r) => r.url), ['/ogc/collections', ...['features', 'images', 'documents', 'media'].flatMap(layerUrls)]);
    assert.match(log[0]!.accept, /application\/json/);
  });

  for (const layer of Object.keys(FIELD_TYPES)) {
    test(`ogrinfo -al -so ${layer}: the count of published records and typed columns`, async () => {
      log.length = 0;
      const out = await gdal('ogrinfo', ['-ro', '-so', '-al', source(), layer]);
      assert.equal(/^Feature Count: (\d+)$/m.exec(out)?.[1], String(EXPECTED_COUNTS[layer]));
      assert.match(out, /^Geometry: Multi Polygon$/m);
      assert.deepEqual([...ogrinfoFields(out)], FIELD_TYPES[layer]);
      // The column types come from the item schema linked as describedBy (GDAL 3.6), and the
      // count from numberMatched of the first page GDAL reads.
      const urls = log.map((r) => r.url);
      assert.ok(urls.includes(`/ogc/collections/${layer}/feature-schema`), urls.join(' '));
      assert.ok(urls.includes(`/ogc/collections/${layer}/items?limit=10`), urls.join(' '));
    });
  }

  test('ogr2ogr -f GPKG copies every footprint through pages of 7: ids, fields and coordinates equal the catalogue', async () => {
    const file = path.join(dir, 'features.gpkg');
    log.length = 0;
    await gdal('ogr2ogr', ['-f', 'GPKG', '-preserve_fid', '-oo', 'PAGE_SIZE=7', file, source(), 'features']);
    const pages = itemsRequests(log, 'features').filter((u, i) => i > 0 || u.searchParams.has('after'));
    // The first request is GDAL's sample page; then the walk: the first page and one per next link.
    assert.equal(pages.length, Math.ceil(FEATURE_COUNT / 7));
    assert.ok(pages.every((u) => u.searchParams.get('limit') === '7'));
    assert.equal(new Set(pages.map((u) => u.searchParams.get('after'))).size, pages.length);
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM features ORDER BY id').all() as Record<string, unknown>[];
      const expected = expectedFeatures(server.origin);
      assert.deepEqual(rows.map(({ fid: _fid, geom: _geom, ...fields }) => fields), expected);
      assert.deepEqual(rows.map((r) => r.fid), expected.map((f) => f.id), 'the integer id is the FID (kept with -preserve_fid)');
      const features = [...CATALOGUE.features].sort(byId);
      assert.deepEqual(rows.map((r) => gpkgMultiPolygon(r.geom as Buffer)), features.map((f) => f.geometry.coordinates));
    } finally {
      db.close();
    }
  });

  test('ogr2ogr of images keeps booleans and dates: copyright 1/0, created as a date or null', async () => {
    const file = path.join(dir, 'images.gpkg');
    await gdal('ogr2ogr', ['-f', 'GPKG', file, source(), 'images']);
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM images ORDER BY id').all() as Record<string, unknown>[];
      const expected = expectedImages(server.origin).map((i) => ({ ...i, copyright: i.copyright ? 1 : 0 }));
      assert.deepEqual(rows.map(({ fid: _fid, geom: _geom, ...fields }) => fields), expected);
    } finally {
      db.close();
    }
  });

  test('-spat sends bbox to the server, which answers exactly the footprints inside, across pages', async () => {
    const base = -0.0703927410721712;
    const box: [number, number, number, number] = [base + 20.5e-4, 51.51, base + 31.5e-4, 51.53];
    const inside = [...CATALOGUE.features]
      .sort(byId)
      .filter((f) => {
        const [w, s, e, n] = envelope(f.geometry);
        return w <= box[2] && e >= box[0] && s <= box[3] && n >= box[1];
      })
      .map((f) => f.id);
    assert.ok(inside.length > 4 && inside.length < FEATURE_COUNT, 'the box holds a few footprints, over more than one page of 4');
    const file = path.join(dir, 'box.geojson');
    log.length = 0;
    await gdal('ogr2ogr', ['-f', 'GeoJSON', '-oo', 'PAGE_SIZE=4', '-spat', ...box.map(String), file, source(), 'features']);
    const ids = (JSON.parse(fs.readFileSync(file, 'utf8')) as { features: { properties: { id: number } }[] }).features.map((f) => f.properties.id);
    assert.deepEqual(ids, inside);
    const walk = itemsRequests(log, 'features').filter((u) => u.searchParams.has('bbox'));
    assert.equal(walk.length, Math.ceil(inside.length / 4));
    for (const url of walk) {
      const sent = url.searchParams.get('bbox')!.split(',').map(Number);
      assert.equal(sent.length, 4);
      sent.forEach((value, i) => assert.ok(Math.abs(value - box[i]!) < 1e-12, `bbox ${sent.join(',')}`));
    }
  });
});

describe('@camptocamp/ogc-client', () => {
  const endpoint = () => new OgcApiEndpoint(`${server.origin}/ogc/`);

  test('lists the four collections, all with features, the footprints with vector tiles too', async () => {
    const e = endpoint();
    // The client finds the tiles by the collection's `tilesets-vector` link (OGC API – Tiles).
    assert.deepEqual(await e.allCollections, ['features', 'images', 'documents', 'media'].map((name) => ({ name, hasFeatures: true, ...(name === 'features' ? { hasVectorTiles: true } : {}) })));
    assert.deepEqual(await e.featureCollections, ['features', 'images', 'documents', 'media']);
  });

  test('getCollectionItems reads the features and the images as the catalogue holds them', async () => {
    const e = endpoint();
    const features = await e.getCollectionItems('features', 100);
    assert.deepEqual(features.map((f) => f.id), expectedFeatures(server.origin).map((f) => f.id));
    assert.deepEqual(features.map((f) => f.properties), expectedFeatures(server.origin));
    assert.deepEqual(features.map((f) => f.geometry), [...CATALOGUE.features].sort(byId).map((f) => f.geometry));
    const images = await e.getCollectionItems('images', 10);
    assert.deepEqual(images.map((i) => i.properties), expectedImages(server.origin));
    const one = await e.getCollectionItem('images', '7');
    assert.deepEqual(one.properties, expectedImages(server.origin)[0]);
  });
});
