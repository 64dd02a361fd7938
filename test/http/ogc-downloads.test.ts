// Whole-result downloads of the OGC face (f=geojson|csv|fgb|gpkg) read back by GDAL (ogr2ogr
// turns each file into GeoJSON) and, for CSV, by a small RFC 4180 reader here: counts, ids,
// fields and coordinates equal the test catalogue's; filters apply; headers, ETag, 304, 412 and HEAD;
// and a download started before an import is entirely the old catalogue.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Catalogue, Feature, MultiPolygon } from '../../src/catalogue/format.js';
import { heldDownload } from '../support/http.js';
import { buildTestCatalogue, largeCatalogue } from '../support/catalogue.js';
import { assertFormulaCells, formulaCatalogue, readCsv } from '../support/csv-cells.js';
import { gdal, gdalSkipReason, ogrinfoFields } from '../support/gdal.js';
import { startTestApp, IN_PROCESS_ORIGIN, type TestApp } from '../support/in-process.js';
import { importInto, startTestServer, temporaryDir } from '../support/server.js';

const CATALOGUE = buildTestCatalogue();
const FORMATS = ['geojson', 'csv', 'fgb', 'gpkg'] as const;
const COLLECTIONS = ['features', 'images', 'documents', 'media'] as const;
type Collection = (typeof COLLECTIONS)[number];
type Value = string | number | boolean | null;

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;
const published = <T extends { published: boolean }>(records: readonly T[]) => records.filter((r) => r.published);
const mediaUrl = (file: string) => `${IN_PROCESS_ORIGIN}/media/${file.split('/').map(encodeURIComponent).join('/')}`;
const featureOf = (id: number): Feature => CATALOGUE.features.find((f) => f.id === id)!;
const authorOf = (id: number) => CATALOGUE.authors.find((a) => a.id === id)!.username;
const apiUrl = (collection: string, id: number) => `${IN_PROCESS_ORIGIN}/api/v1/${collection}/${id}/`;
const pageUrl = (collection: string, id: number) => `${IN_PROCESS_ORIGIN}/ogc/collections/${collection}/items/${id}?f=html`;

interface Expected {
  id: number;
  properties: Record<string, Value>;
  geometry: MultiPolygon;
}

/** Each collection's items as the catalogue says they are (documents' `text`: checked apart). */
function expected(collection: Collection, catalogue: Catalogue = CATALOGUE): Expected[] {
  const attribution = (r: { author: number; feature: number }) => ({
    author: authorOf(r.author), author_id: r.author, feature_id: r.feature, address: featureOf(r.feature).address,
  });
  switch (collection) {
    case 'features':
      return [...catalogue.features].sort(byId).map((f) => {
        const images = published(catalogue.images).filter((i) => i.feature === f.id).sort(byId);
        return {
          id: f.id,
          geometry: f.geometry,
          properties: {
            id: f.id, feature_type: f.feature_type, b_number: f.b_number, b_name: f.b_name, street: f.street, postcode: f.postcode,
            address: f.address, current: f.current, site_id: f.site, site_name: catalogue.sites.find((s) => s.id === f.site)?.name ?? null,
            categories: f.categories.map((id) => catalogue.categories.find((c) => c.id === id)!.name).join('; '),
            category_ids: f.categories.join('; '), tags: f.tags.join('; '),
            image_count: images.length,
            document_count: published(catalogue.documents).filter((d) => d.feature === f.id).length,
            media_count: published(catalogue.media).filter((m) => m.feature === f.id).length,
            thumbnail: images[0] === undefined ? null : mediaUrl(images[0].file),
            api_url: apiUrl('features', f.id), page_url: pageUrl('features', f.id),
          },
        };
      });
    case 'images':
      return published(catalogue.images).sort(byId).map((i) => ({
        id: i.id,
        geometry: featureOf(i.feature).geometry,
        properties: {
          id: i.id, title: i.title, description: i.description, copyright: i.copyright, created: i.created, ...attribution(i),
          file_url: mediaUrl(i.file), api_url: apiUrl('images', i.id), page_url: pageUrl('images', i.id),
        },
      }));
    case 'documents':
      return published(catalogue.documents).sort(byId).map((d) => ({
        id: d.id,
        geometry: featureOf(d.feature).geometry,
        properties: {
          id: d.id, title: d.title, body_html: d.body, created: d.created, last_edited: d.last_edited, ...attribution(d),
          text: null, api_url: apiUrl('documents', d.id), page_url: pageUrl('documents', d.id),
        },
      }));
    case 'media':
      return published(catalogue.media).sort(byId).map((m) => ({
        id: m.id,
        geometry: featureOf(m.feature).geometry,
        properties: { id: m.id, title: m.title, url: m.url, ...attribution(m), api_url: apiUrl('media', m.id), page_url: pageUrl('media', m.id) },
      }));
  }
}

/** A value as read back: GDAL's dates of a FlatGeobuf DateTime column carry a time; CSV holds text. */
function comparable(value: unknown, want: Value, asText: boolean): unknown {
  if (asText) return value === '' || value === undefined ? null : value;
  // A FlatGeobuf or GeoPackage null is an unset field, which ogr2ogr leaves out.
  if (value === undefined) return null;
  if (typeof want === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(want) && typeof value === 'string') return value.replace(/[T ]00:00:00(\.000)?Z?$/, '').replaceAll('/', '-');
  return value;
}

function assertItems(
  read: { id: number; properties: Record<string, unknown>; geometry: MultiPolygon | null }[],
  want: Expected[],
  fields: string[],
  where: string,
  { asText = false } = {},
): void {
  assert.deepEqual(read.map((r) => r.id), want.map((w) => w.id), `${where}: ids`);
  for (const [i, w] of want.entries()) {
    const r = read[i]!;
    for (const [name, value] of Object.entries(w.properties)) {
      if (name === 'text') {
        assert.ok(typeof r.properties.text === 'string' && r.properties.text.length > 0 && !r.properties.text.includes('<'), `${where}: text of ${w.id}`);
        continue;
      }
      const expectedValue = asText && value !== null && value !== '' ? String(value) : asText ? null : value;
      assert.deepEqual(comparable(r.properties[name], value, asText), expectedValue, `${where}: ${name} of ${w.id}`);
    }
    assert.deepEqual(r.geometry?.coordinates, w.geometry.coordinates, `${where}: coordinates of ${w.id}`);
  }
}

/** The file's fields as ogrinfo lists them, and its features as ogr2ogr converts them to GeoJSON. */
async function readWithGdal(file: string): Promise<{ fields: string[]; items: { id: number; properties: Record<string, unknown>; geometry: MultiPolygon | null }[] }> {
  const args = file.endsWith('.csv') ? ['-oo', 'GEOM_POSSIBLE_NAMES=wkt', '-oo', 'KEEP_GEOM_COLUMNS=NO'] : [];
  const fields = [...ogrinfoFields(await gdal('ogrinfo', ['-so', '-al', ...args, file])).keys()];
  const out = await gdal('ogr2ogr', ['-f', 'GeoJSON', '-lco', 'WRITE_NAME=NO', '-lco', 'SIGNIFICANT_FIGURES=17', ...args, '/vsistdout/', file]);
  const collection = JSON.parse(out) as { features: { id?: number; properties: Record<string, unknown>; geometry: MultiPolygon | null }[] };
  // GDAL's GeoJSON reader takes a Feature's `id` for its FID (written back as the Feature's id).
  const items = collection.features.map((f) => ({ id: Number(f.properties.id ?? f.id), properties: { id: f.properties.id ?? f.id, ...f.properties }, geometry: f.geometry }));
  return { fields, items };
}

/** WKT MULTIPOLYGON → coordinates (what our CSV writes). */
function parseWkt(wkt: string): number[][][][] {
  const body = /^MULTIPOLYGON \((.*)\)$/.exec(wkt)![1]!;
  return body.split(/\)\),\s*\(\(/).map((polygon) =>
    polygon.replace(/^\(\(|\)\)$/g, '').split(/\),\s*\(/).map((ring) => ring.split(/,\s*/).map((point) => point.trim().split(' ').map(Number))),
  );
}

/** Even-odd point-in-multipolygon, written here (the test's own). */
function inside(geometry: MultiPolygon, x: number, y: number): boolean {
  return geometry.coordinates.some((polygon) => {
    let odd = false;
    for (const ring of polygon) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!;
        const [xj, yj] = ring[j]!;
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
      }
    }
    return odd;
  });
}

const fieldsOf = (collection: Collection) => Object.keys(expected(collection)[0]?.properties ?? {});

describe('OGC downloads', () => {
  let app: TestApp;
  let dir: string;
  const skipGdal = gdalSkipReason();

  before(async () => {
    app = await startTestApp();
    dir = temporaryDir();
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function download(collection: string, query: string, name: string): Promise<string> {
    const answer = await app.request(`/ogc/collections/${collection}/items?${query}`);
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const file = path.join(dir, name);
    fs.writeFileSync(file, answer.bytes);
    return file;
  }

  for (const collection of COLLECTIONS) {
    for (const format of FORMATS) {
      test(`GDAL reads ${collection} as ${format}: ids, fields, values and coordinates are the catalogue's`, { skip: skipGdal }, async () => {
        const file = await download(collection, `f=${format}`, `${collection}.${format}`);
        const want = expected(collection);
        const { fields, items } = await readWithGdal(file);
        const declared = fieldsOf(collection);
        // CSV: lon and lat follow (wkt is the geometry; ogrinfo's header line "Geometry: …" is no field).
        const wanted = format === 'csv' ? [...declared, 'lon', 'lat'] : declared;
        assert.deepEqual(fields.filter((f) => f !== 'Geometry'), wanted, `${collection}.${format}: fields`);
        assertItems(items, want, declared, `${collection}.${format}`, { asText: format === 'csv' });
      });
    }
  }

  test('the CSV, read by an RFC 4180 reader: a header of the properties then wkt, lon, lat; a row per item; the point lies inside', async () => {
    for (const collection of COLLECTIONS) {
      const answer = await app.request(`/ogc/collections/${collection}/items?f=csv`);
      const [header, ...rows] = readCsv(answer.text);
      const fields = fieldsOf(collection);
      assert.deepEqual(header, [...fields, 'wkt', 'lon', 'lat']);
      const read = rows.map((row) => {
        const properties = Object.fromEntries(fields.map((name, i) => [name, row[i]!]));
        const [wkt, lon, lat] = row.slice(fields.length);
        const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: parseWkt(wkt!) as MultiPolygon['coordinates'] };
        assert.ok(inside(geometry, Number(lon), Number(lat)), `${collection} ${properties.id}: ${lon} ${lat} lies inside its footprint`);
        return { id: Number(properties.id), properties, geometry };
      });
      assertItems(read, expected(collection), fields, `${collection}.csv`, { asText: true });
    }
  });

  test('headers: Content-Type per format, Content-Disposition names the file, an ETag; If-None-Match → 304 with no body', async () => {
    const types = { geojson: 'application/geo+json', csv: 'text/csv; charset=utf-8', fgb: 'application/flatgeobuf', gpkg: 'application/geopackage+sqlite3' };
    for (const format of FORMATS) {
      const answer = await app.request(`/ogc/collections/images/items?f=${format}`);
      assert.equal(answer.headers['content-type'], types[format]);
      const extension = format;
      assert.equal(answer.headers['content-disposition'], `attachment; filename="images.${extension}"`);
      const etag = String(answer.headers.etag);
      assert.match(etag, /^"[^"]+"$/);
      const again = await app.request(`/ogc/collections/images/items?f=${format}`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(again.bytes.length, 0);
      const other = await app.request(`/ogc/collections/images/items?f=${format}&sortby=-id`, { headers: { 'if-none-match': etag } });
      assert.equal(other.status, 200, 'another URL has another ETag');
    }
  });

  test('HEAD sends the headers GET sends: the kept GeoPackage\'s Content-Length, no length where GET streams; no body', async () => {
    // `f=gpkg` alone is the kept file (sent with its length); the others, and a filtered GeoPackage, are streamed.
    for (const query of ['f=gpkg', 'f=gpkg&sortby=id', 'f=csv', 'f=geojson', 'f=fgb']) {
      const url = `/ogc/collections/features/items?${query}`;
      const get = await app.request(url);
      const head = await app.request(url, { method: 'HEAD' });
      assert.equal(head.status, 200, query);
      assert.equal(head.bytes.length, 0, query);
      const kept = query === 'f=gpkg';
      assert.equal(get.headers['content-length'], kept ? String(get.bytes.length) : undefined, `${query}: GET`);
      assert.equal(head.headers['content-length'], get.headers['content-length'], `${query}: HEAD`);
      for (const name of ['etag', 'content-type', 'content-disposition', 'cache-control']) assert.equal(head.headers[name], get.headers[name], `${query}: ${name}`);
    }
  });

  test('If-Match: a tag that is not the current ETag → 412 (before If-None-Match); the ETag, a list holding it, or * → the file', async () => {
    for (const query of ['f=gpkg', 'f=csv']) {
      const url = `/ogc/collections/images/items?${query}`;
      const etag = String((await app.request(url, { method: 'HEAD' })).headers.etag);
      for (const method of ['GET', 'HEAD'] as const) {
        for (const [ifMatch, status] of [['"nope"', 412], [`W/${etag}`, 412], [etag, 200], [`"nope", ${etag}`, 200], ['*', 200]] as const) {
          const answer = await app.request(url, { method, headers: { 'if-match': ifMatch } });
          assert.equal(answer.status, status, `${method} ${query} If-Match: ${ifMatch}`);
        }
        const both = await app.request(url, { method, headers: { 'if-match': '"nope"', 'if-none-match': etag } });
        assert.equal(both.status, 412, `${method} ${query}: If-Match is evaluated first`);
      }
      const refused = await app.request(url, { headers: { 'if-match': '"nope"' } });
      assert.deepEqual(refused.json(), { code: 'PreconditionFailed', description: 'Precondition Failed' });
      assert.equal(refused.headers['content-disposition'], undefined, 'a refusal is no file');
      const matched = await app.request(url, { headers: { 'if-match': etag } });
      assert.equal(matched.bytes.length > 0, true);
    }
  });

  test('a filtered download (bbox, filter, sortby) is exactly the filtered items, in their order', async () => {
    const bbox = '-0.0702,51.5160,-0.0660,51.5200';
    const filter = encodeURIComponent("feature_type = 'WHITECHAPEL_BUILDING' AND street IS NOT NULL").replaceAll("'", '%27');
    const query = `bbox=${bbox}&filter=${filter}&sortby=-id`;
    const pages = await app.request(`/ogc/collections/features/items?${query}&limit=1000`);
    const ids = (pages.json() as { features: { id: number }[] }).features.map((f) => f.id);
    assert.ok(ids.length > 2 && ids.length < CATALOGUE.features.length, `the filter keeps some features (${ids.length})`);
    const [west, south, east, north] = bbox.split(',').map(Number) as [number, number, number, number];
    const byCatalogue = CATALOGUE.features
      .filter((f) => f.feature_type === 'WHITECHAPEL_BUILDING' && f.street !== null)
      .filter((f) => f.geometry.coordinates.flat(2).some(([x, y]) => x >= west && x <= east && y >= south && y <= north))
      .map((f) => f.id)
      .sort((a, b) => b - a);
    assert.deepEqual(ids, byCatalogue, 'the page answer agrees with the catalogue');
    const geojson = (await app.request(`/ogc/collections/features/items?${query}&f=geojson`)).json() as { features: { id: number }[] };
    assert.deepEqual(geojson.features.map((f) => f.id), ids);
    const csv = readCsv((await app.request(`/ogc/collections/features/items?${query}&f=csv`)).text);
    assert.deepEqual(csv.slice(1).map((row) => Number(row[0])), ids);
    if (skipGdal === undefined) {
      for (const format of ['fgb', 'gpkg'] as const) {
        const { items } = await readWithGdal(await download('features', `${query}&f=${format}`, `filtered.${format}`));
        // A GeoPackage table is read in fid order, whatever order it was written in.
        const read = items.map((r) => r.id);
        assert.deepEqual(format === 'gpkg' ? read : read, format === 'gpkg' ? [...ids].sort((a, b) => a - b) : ids, format);
      }
    }
  });

  test('limit, after and before are refused with a download format; properties and skipGeometry apply', async () => {
    for (const query of ['f=csv&limit=10', 'f=fgb&after=WzFd', 'f=geojson&before=WzFd', 'f=gpkg&skipGeometry=true', 'f=xml']) {
      const answer = await app.request(`/ogc/collections/features/items?${query}`);
      assert.equal(answer.status, 400, query);
    }
    const csv = readCsv((await app.request('/ogc/collections/features/items?f=csv&properties=address,id&skipGeometry=true')).text);
    assert.deepEqual(csv[0], ['id', 'address']);
    assert.deepEqual(csv[1], ['1', CATALOGUE.features.find((f) => f.id === 1)!.address]);
  });

  test('a filter the store cannot answer (no such queryable, a literal of another type) is a 400 naming it, in every format', async () => {
    for (const format of FORMATS) {
      for (const [filter, named] of [['height = 3', '"height"'], ["current = 'abc'", '"current"']]) {
        const answer = await app.request(`/ogc/collections/features/items?f=${format}&filter=${encodeURIComponent(filter!).replace(/'/g, '%27')}`);
        assert.equal(answer.status, 400, `${format}: ${filter}`);
        const body = answer.json() as { code: string; description: string };
        assert.equal(body.code, 'InvalidParameterValue');
        assert.ok(body.description.startsWith('Invalid filter: ') && body.description.includes(named!), body.description);
      }
    }
  });

  test('each collection links its four downloads as rel=enclosure, with their types', async () => {
    for (const collection of COLLECTIONS) {
      const body = (await app.request(`/ogc/collections/${collection}`)).json() as { links: { href: string; rel: string; type: string; title?: string }[] };
      const enclosures = body.links.filter((l) => l.rel === 'enclosure');
      assert.deepEqual(enclosures.map((l) => l.href), FORMATS.map((f) => `${IN_PROCESS_ORIGIN}/ogc/collections/${collection}/items?f=${f}`));
      assert.ok(enclosures.every((l) => l.type !== '' && (l.title ?? '') !== ''));
    }
  });
});

test('CSV: text that a spreadsheet would read as a formula (=, +, -, @, tab, CR first) gets a leading \' and quotes; numbers stay numbers', async () => {
  const app = await startTestApp({ catalogue: formulaCatalogue() });
  try {
    for (const collection of ['features', 'images'] as const) {
      const answer = await app.request(`/ogc/collections/${collection}/items?f=csv`);
      assert.equal(answer.status, 200);
      assertFormulaCells(answer.text, collection);
    }
  } finally {
    await app.close();
  }
});

test('a download started before an import is entirely the catalogue it started from', async () => {
  const old = largeCatalogue();
  const server = await startTestServer({ catalogue: old });
  try {
    const url = `${server.origin}/ogc/collections/features/items?f=geojson`;
    // Read one chunk, then stop reading: the server is held back by the socket.
    const { response, finish } = await heldDownload(url);
    assert.equal(response.statusCode, 200);
    const renewed = buildTestCatalogue();
    for (const f of renewed.features) f.address = `Renamed ${f.id}`;
    await importInto(server.dbArgs.length === 2 ? server.dbArgs[1]! : { database: server.dbArgs[1]!, databaseSchema: server.dbArgs[3]! }, renewed);
    const now = await server.request('/ogc/collections/features/items?limit=1&f=json');
    const page = now.json() as { numberMatched: number; features: { properties: { address: string } }[] };
    assert.equal(page.numberMatched, renewed.features.length, 'the import landed');
    assert.equal(page.features[0]!.properties.address, 'Renamed 1');
    const body = JSON.parse((await finish()).toString('utf8')) as { features: { id: number; properties: { address: string } }[] };
    assert.equal(body.features.length, old.features.length);
    assert.deepEqual(body.features.map((f) => f.properties.address), [...old.features].sort(byId).map((f) => f.address));
  } finally {
    await server.close();
  }
});
