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
import { pageHolding } from '../support/docs.js';
import { GDAL_COMMANDS_MARKER, gdal, gdalOutcome, gdalSkipReason, gpkgMultiPolygon, logRequests, ogrinfoFields, readmeGdalCommands, type LoggedRequest } from '../support/gdal.js';
import { readCsv } from '../support/csv-cells.js';
import { tileOf } from '../support/tile-math.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

/**
 * The test catalogue with years only on features past GDAL's first page (its page of 10 holds
 * ids 1 to 19): only the item schema can make `current` an integer column. The years run
 * from 1871 to 1939, three of them in the 1890s.
 */
function catalogue(): Catalogue {
  const c = buildTestCatalogue();
  for (const f of c.features) f.current = f.id > 20 && f.id % 4 === 1 ? 1850 + f.id : null;
  // Names for a case-insensitive -where (docs/gis.md's `b_name ILIKE '%church%'`), in three cases.
  for (const f of c.features.filter((f) => f.id % 10 === 3)) f.b_name = [`Old Church ${f.id}`, `CHURCH HALL ${f.id}`, `St Mary's church`][f.id % 3]!;
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

const featureIds = (keep: (f: Feature) => boolean) => [...CATALOGUE.features].sort(byId).filter(keep).map((f) => f.id);
const geojsonIds = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as { features: { properties: { id: number } }[] }).features.map((f) => f.properties.id);
const inNineties = (f: Feature) => f.current !== null && f.current >= 1890 && f.current <= 1899;
/** `datetime` keeps the undated too (/req/core/fc-time-response C). */
const datedNinetiesOrUndated = (f: Feature) => f.current === null || inNineties(f);
const DATETIME_1890S = '1890-01-01/1899-12-31';

/** The -where conditions the tests (and docs/gis.md) give GDAL, each with its meaning computed here. */
const WHERE: Record<string, { collection: 'features' | 'images'; ids: () => number[] }> = {
  'current >= 1890 AND current <= 1899': { collection: 'features', ids: () => featureIds(inNineties) },
  "b_name ILIKE '%church%'": { collection: 'features', ids: () => featureIds((f) => (f.b_name ?? '').toLowerCase().includes('church')) },
  "NOT (current IS NULL) AND street = 'Osborn Street' OR id = 3": {
    collection: 'features',
    ids: () => featureIds((f) => (f.current !== null && f.street === 'Osborn Street') || f.id === 3),
  },
  "b_name LIKE 'Old%' OR current BETWEEN 1900 AND 1910": {
    collection: 'features',
    ids: () => featureIds((f) => (f.b_name ?? '').startsWith('Old') || (f.current !== null && f.current >= 1900 && f.current <= 1910)),
  },
  "created >= '2016-06-01'": { collection: 'images', ids: () => published(CATALOGUE.images).filter((i) => i.created !== null && i.created >= '2016-06-01').sort(byId).map((i) => i.id) },
};

/** GDAL sent the condition as a cql-text filter on a handful of requests: its sample page, then only filtered pages. */
function assertFilteredOnServer(requests: readonly LoggedRequest[], collection: string, matched: number): void {
  const items = itemsRequests(requests, collection);
  const filtered = items.filter((u) => u.searchParams.has('filter'));
  assert.equal(filtered.length, Math.max(1, Math.ceil(matched / 10)), requests.map((r) => r.url).join(' '));
  assert.ok(filtered.every((u) => u.searchParams.get('filter-lang') === 'cql-text'));
  assert.equal(items.length - filtered.length, 1, 'one unfiltered request: the sample page GDAL reads to make the layer');
  assert.ok(requests.length <= 5 + filtered.length, `${requests.length} requests`);
}

describe('GDAL: -where and the query string of the dataset URL, on the server', { skip: gdalSkip }, () => {
  for (const [where, { collection, ids }] of Object.entries(WHERE)) {
    test(`ogr2ogr -where "${where}" sends it as filter (filter-lang=cql-text) and gets exactly the matching ${collection}`, async () => {
      const expected = ids();
      assert.ok(expected.length > 0 && expected.length < EXPECTED_COUNTS[collection]!, `${expected.length} match`);
      const file = path.join(dir, 'where.geojson');
      fs.rmSync(file, { force: true });
      log.length = 0;
      await gdal('ogr2ogr', ['-f', 'GeoJSON', file, `OAPIF:${server.origin}/ogc`, collection, '-where', where]);
      assert.deepEqual(geojsonIds(file), expected);
      assertFilteredOnServer(log, collection, expected.length);
    });
  }

  for (const dataset of ['/ogc', '/ogc/collections/features']) {
    test(`OAPIF:…${dataset}?datetime=…: every request GDAL makes carries it, next links too, and the walk finds exactly the matches`, async () => {
      const file = path.join(dir, 'datetime.geojson');
      fs.rmSync(file, { force: true });
      log.length = 0;
      await gdal('ogr2ogr', ['-f', 'GeoJSON', '-oo', 'PAGE_SIZE=4', file, `OAPIF:${server.origin}${dataset}?datetime=${DATETIME_1890S}`, 'features']);
      assert.deepEqual(geojsonIds(file), featureIds(datedNinetiesOrUndated));
      const urls = log.map((r) => new URL(r.url, 'http://x'));
      assert.ok(urls.every((u) => u.searchParams.getAll('datetime').every((v) => v === DATETIME_1890S) && u.searchParams.has('datetime')), log.map((r) => r.url).join(' '));
      // Before the items: the landing page (or the collection) and the documents GDAL reads took it.
      assert.ok(urls.some((u) => u.pathname === `${dataset === '/ogc' ? '/ogc/collections' : dataset}`));
      const walk = itemsRequests(log, 'features');
      assert.ok(walk.length > 3, `${walk.length} pages`);
      assert.ok(walk.some((u) => u.searchParams.getAll('datetime').length === 2), 'GDAL appended datetime again to a next link, which spells / as %2F');
    });
  }

  test('ogrinfo -fid on OAPIF:…/ogc?datetime=…: the single item takes the appended parameter too', async () => {
    log.length = 0;
    const out = await gdal('ogrinfo', ['-ro', `OAPIF:${server.origin}/ogc?datetime=${DATETIME_1890S}`, 'features', '-fid', '41']);
    assert.match(out, /^OGRFeature\(features\):41$/m);
    assert.match(out, /^ {2}current \(Integer\) = 1891$/m);
    assert.ok(log.some((r) => r.url === `/ogc/collections/features/items/41?datetime=${DATETIME_1890S}`), log.map((r) => r.url).join(' '));
  });

  test('every GDAL command the docs show runs here and gives what the catalogue holds', async () => {
    const readme = pageHolding(GDAL_COMMANDS_MARKER).text;
    const work = fs.mkdtempSync(path.join(dir, 'readme-'));
    const ids = (table: Record<string, unknown>[]) => table.map((row) => Number(row.id));
    const gpkgIds = (file: string, layer: string) => {
      const db = new Database(path.join(work, file), { readonly: true });
      try {
        return ids(db.prepare(`SELECT id FROM "${layer}" ORDER BY id`).all() as Record<string, unknown>[]);
      } finally {
        db.close();
      }
    };
    const checks: { matches: RegExp; check: (out: string, args: string[]) => void }[] = [
      {
        matches: /^ogrinfo OAPIF:\S+\/ogc$/,
        check: (out) => assert.deepEqual([...out.matchAll(/^\d+: (\w+)/gm)].map((m) => m[1]), ['features', 'images', 'documents', 'media']),
      },
      {
        matches: /^ogrinfo -so OAPIF:\S+\/ogc features$/,
        check: (out) => {
          assert.equal(/^Feature Count: (\d+)$/m.exec(out)?.[1], String(EXPECTED_COUNTS.features));
          assert.deepEqual([...ogrinfoFields(out)], FIELD_TYPES.features);
        },
      },
      {
        matches: /^ogr2ogr -f GPKG \S+\.gpkg OAPIF:\S+\/ogc (features|images)$/,
        check: (_out, args) => {
          const layer = args.at(-1)!;
          const expected = layer === 'features' ? featureIds(() => true) : published(CATALOGUE.images).sort(byId).map((i) => i.id);
          assert.deepEqual(gpkgIds(args[2]!, layer), expected);
        },
      },
      {
        matches: /^ogr2ogr -f CSV -spat \S+ \S+ \S+ \S+ \S+\.csv OAPIF:\S+\/ogc features$/,
        check: (_out, args) => {
          const box = args.slice(3, 7).map(Number);
          const rows = readCsv(fs.readFileSync(path.join(work, args[7]!), 'utf8').replace(/\r?\n/g, '\r\n'));
          const column = rows[0]!.indexOf('id');
          const found = rows.slice(1).filter((r) => r.length > 1).map((r) => Number(r[column]));
          const inside = featureIds((f) => {
            const [w, s, e, n] = envelope(f.geometry);
            return w <= box[2]! && e >= box[0]! && s <= box[3]! && n >= box[1]!;
          });
          assert.ok(inside.length > 0 && inside.length < FEATURE_COUNT, `${inside.length} inside`);
          assert.deepEqual(found, inside);
        },
      },
      {
        matches: /^ogr2ogr -f GeoJSON \S+\.geojson OAPIF:\S+\/ogc features -where /,
        check: (_out, args) => {
          const where = WHERE[args.at(-1)!];
          assert.ok(where, `a -where the tests know: ${args.at(-1)}`);
          const expected = where.ids();
          assert.deepEqual(geojsonIds(path.join(work, args[2]!)), expected);
          assertFilteredOnServer(log, 'features', expected.length);
        },
      },
      {
        matches: /^ogr2ogr -f GeoJSON \S+\.geojson OAPIF:\S+\/ogc(\/collections\/features)?\?datetime=1890-01-01\/1899-12-31 features$/,
        check: (_out, args) => assert.deepEqual(geojsonIds(path.join(work, args[2]!)), featureIds(datedNinetiesOrUndated)),
      },
      {
        matches: /^ogrinfo MVT:\S+\/tiles\/features\/\d+\/\d+\/\d+\.mvt$/,
        check: (out) => assert.match(out, /^1: features \(Multi Polygon\)$/m),
      },
    ];
    const commands = readmeGdalCommands(readme, server.origin);
    const used = new Set<number>();
    for (const [tool, ...args] of commands) {
      const line = [tool, ...args].join(' ');
      const at = checks.findIndex((c) => c.matches.test(line));
      assert.ok(at >= 0, `the docs show a GDAL command no test checks: ${line}`);
      log.length = 0;
      const out = await gdal(tool as 'ogrinfo' | 'ogr2ogr', args, work);
      checks[at]!.check(out, args);
      used.add(at);
    }
    assert.ok(commands.length >= 8, `${commands.length} commands`);
    assert.equal(used.size, checks.length, 'each kind of command is still in the docs');
  });
});

describe('GDAL after 3.6: the requests its OAPIF source writes', () => {
  // GDAL 3.7 to 3.10 (ogr/ogrsf_frmts/wfs/ogroapifdriver.cpp) still look for cql-text in the
  // filter-lang enum of /ogc/api and write the same text (BuildFilterCQLText), but ask for pages
  // of up to 1000; these are the requests they send, over HTTP.
  const written: [string, (f: Feature) => boolean][] = [
    ['(current >= 1890) AND (current <= 1899)', inNineties],
    ["(b_name ILIKE '%CHURCH%') OR (id = 5)", (f) => (f.b_name ?? '').toLowerCase().includes('church') || f.id === 5],
    ['NOT ((current IS NULL))', (f) => f.current !== null],
    ["(street = 'Osborn Street') AND (current > 1889) AND (postcode <> 'E1 7')", (f) => f.street === 'Osborn Street' && f.current !== null && f.current > 1889 && f.postcode !== 'E1 7'],
    ["(b_name LIKE 'Old%') OR (b_name = 'St Mary''s church')", (f) => (f.b_name ?? '').startsWith('Old') || f.b_name === "St Mary's church"],
  ];
  for (const [filter, keep] of written) {
    test(`filter=${filter}&filter-lang=cql-text&limit=1000`, async () => {
      const answer = await server.request(`/ogc/collections/features/items?limit=1000&filter=${encodeURIComponent(filter)}&filter-lang=cql-text`);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json().features.map((f: { id: number }) => f.id), featureIds(keep));
    });
  }

  test('the API definition offers cql-text on every items path, where GDAL looks (paths[/collections/{id}/items].get.parameters)', async () => {
    const document = (await server.request('/ogc/api?f=json')).json();
    for (const name of ['features', 'images', 'documents', 'media']) {
      const parameters = document.paths[`/collections/${name}/items`].get.parameters.map((p: { $ref?: string }) =>
        p.$ref === undefined ? p : p.$ref.slice(2).split('/').reduce((node: any, key: string) => node[key], document));
      const lang = parameters.find((p: { name: string; in: string }) => p.name === 'filter-lang' && p.in === 'query');
      assert.ok(lang.schema.enum.includes('cql-text'), name);
    }
  });
});

describe('GDAL 3.6 and the tiles (OGCAPI and MVT drivers)', { skip: gdalSkip }, () => {
  test('ogrinfo OGCAPI:…/collections/features -oo API=TILES reads the tile matrix set without "Destination buffer too small" or "Invalid tiling matrix set name"', async () => {
    log.length = 0;
    const { stderr } = await gdalOutcome('ogrinfo', [`OGCAPI:${server.origin}/ogc/collections/features`, '-oo', 'API=TILES']);
    assert.ok(log.some((r) => r.url === '/ogc/tileMatrixSets/WebMercatorQuad'), log.map((r) => r.url).join(' '));
    // Debian's 3.6 has no vector branch in its OGCAPI driver: it opens nothing, but parses the set.
    assert.doesNotMatch(stderr, /Destination buffer too small|Invalid tiling matrix set name|TileMatrixSetType|tileMatrix/);
  });

  test('GDAL parses the served WebMercatorQuad into the very grid of its own GoogleMapsCompatible (a COG tiled by each)', async () => {
    const tms = path.join(dir, 'WebMercatorQuad.json');
    fs.writeFileSync(tms, (await server.request('/ogc/tileMatrixSets/WebMercatorQuad')).text);
    const source = path.join(dir, 'grid.tif');
    await gdal('gdal_create', ['-of', 'GTiff', '-outsize', '64', '64', '-burn', '7', '-a_srs', 'EPSG:3857', '-a_ullr', '-7900', '6711000', '-7000', '6710100', source]);
    const grid = async (scheme: string) => {
      const out = path.join(dir, `grid-${path.basename(scheme)}.tif`);
      fs.rmSync(out, { force: true });
      await gdal('gdal_translate', ['-q', '-of', 'COG', '-co', `TILING_SCHEME=${scheme}`, source, out]);
      const info = JSON.parse(await gdal('gdalinfo', ['-json', out])) as { size: number[]; geoTransform: number[] };
      return [...info.size, ...info.geoTransform];
    };
    const own = await grid('GoogleMapsCompatible');
    const served = await grid(tms);
    assert.equal(served.length, own.length);
    served.forEach((value, i) => assert.ok(Math.abs(value - own[i]!) <= 1e-9 * Math.max(1, Math.abs(own[i]!)), `${served.join(',')} against ${own.join(',')}`));
  });

  test('ogrinfo MVT: reads the footprints of a tile whose URL the tileset gives', async () => {
    const tileset = (await server.request('/ogc/collections/features/tiles/WebMercatorQuad')).json() as { links: { rel: string; href: string }[] };
    const template = tileset.links.find((l) => l.rel === 'item')!.href;
    const feature = featureOf(41);
    const { z, x, y } = tileOf(feature.geometry.coordinates[0]![0]![0]!, 16);
    const url = template.replace('{tileMatrix}', String(z)).replace('{tileCol}', String(x)).replace('{tileRow}', String(y));
    const out = await gdal('ogrinfo', ['-ro', '-al', `MVT:${url}`]);
    assert.match(out, /^Layer name: features$/m);
    const ids = [...out.matchAll(/^ {2}id \(Integer\) = (\d+)$/gm)].map((m) => Number(m[1]));
    assert.ok(ids.includes(feature.id), ids.join(' '));
    assert.ok(ids.every((id) => CATALOGUE.features.some((f) => f.id === id)));
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
