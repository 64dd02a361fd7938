// The tileset described for other sites and GIS clients (issue 20): TileJSON 3.0 at
// /tiles/features.json, OGC API – Tiles under the features collection (tilesets, the
// WebMercatorQuad tileset and tile matrix set), and CORS on /tiles/ and /media/. Expected
// values come from the catalogue and from the WebMercatorQuad definition's own arithmetic.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Catalogue } from '../../src/catalogue/format.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { linkOf, linkPath, ogc400, ogcJson } from '../support/ogc.js';
import { temporaryDir } from '../support/server.js';
import { buildTileCatalogue, decodeLayers } from '../support/tile-catalogue.js';
import { tileOf } from '../support/tile-math.js';

const JSON_TYPE = 'application/json';
const MVT = 'application/vnd.mapbox-vector-tile';
const OTHER_SITE = 'http://maps.example';
const REL = (name: string) => `http://www.opengis.net/def/rel/ogc/1.0/${name}`;
/** The equator's length in metres on the WGS 84 sphere web mercator uses. */
const EQUATOR = 2 * Math.PI * 6378137;

type Link = { href: string; rel: string; type: string; templated?: boolean };

/** Every footprint's lon/lat box, computed from the catalogue. */
function catalogueBounds(catalogue: Catalogue): [number, number, number, number] {
  const positions = catalogue.features.flatMap((f) => f.geometry.coordinates.flat(2));
  const lons = positions.map((p) => p[0]!);
  const lats = positions.map((p) => p[1]!);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

/** Equal within SQLite's R*Tree rounding (32-bit floats, outwards). */
function assertNear(actual: readonly number[], expected: readonly number[], where: string): void {
  actual.forEach((value, i) => assert.ok(Math.abs(value - expected[i]!) < 1e-4, `${where}[${i}]: ${value}, expected ${expected[i]}`));
}

describe('TileJSON and OGC API – Tiles', () => {
  const catalogue = buildTileCatalogue();
  const bounds = catalogueBounds(catalogue);
  const feature = catalogue.features[0]!;
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue });
  });
  after(() => t.close());

  test('/tiles/features.json is TileJSON 3.0: the tile template, bounds, a centre inside them, zooms 0–22, both layers with their fields', async () => {
    const answer = await t.request('/tiles/features.json');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], JSON_TYPE);
    const body = answer.json();
    assert.equal(body.tilejson, '3.0.0');
    assert.deepEqual(body.tiles, [`${t.origin}/tiles/features/{z}/{x}/{y}.mvt`]);
    assert.deepEqual([body.minzoom, body.maxzoom, body.scheme], [0, 22, 'xyz']);
    assertNear(body.bounds, bounds, 'bounds');
    const [lon, lat, zoom] = body.center;
    assert.ok(lon >= bounds[0] && lon <= bounds[2] && lat >= bounds[1] && lat <= bounds[3] && Number.isInteger(zoom), `center ${body.center}`);
    assert.deepEqual(body.vector_layers.map((l: { id: string; fields: object }) => [l.id, Object.keys(l.fields).sort()]), [
      ['features', ['b_name', 'category', 'category_id', 'feature_type', 'id']],
      ['points', ['category_id', 'count', 'id']],
    ]);
    // The template leads to a tile holding the feature.
    const { z, x, y } = tileOf(feature.geometry.coordinates[0]![0]![0]!, 16);
    const tile = await t.request(linkPath(t, body.tiles[0].replace('{z}', z).replace('{x}', x).replace('{y}', y)));
    assert.equal(tile.status, 200);
    assert.ok(decodeLayers(tile.bytes).features.some((f) => f.id === feature.id));
    const again = await t.request('/tiles/features.json', { headers: { 'if-none-match': answer.headers.etag! } });
    assert.equal(again.status, 304);
  });

  test('the features collection links its tilesets; the other collections have none', async () => {
    const features = await ogcJson(t, '/ogc/collections/features');
    assert.deepEqual(features.links.filter((l: Link) => l.rel === REL('tilesets-vector')).map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/collections/features/tiles`, JSON_TYPE]]);
    for (const c of ['images', 'documents', 'media']) {
      assert.equal(linkOf(await ogcJson(t, `/ogc/collections/${c}`), REL('tilesets-vector')), undefined, c);
      assert.equal((await t.request(`/ogc/collections/${c}/tiles`)).status, 404, c);
    }
  });

  test('the tilesets list: one vector tileset in WebMercatorQuad, linked to its metadata and its tile matrix set', async () => {
    const body = await ogcJson(t, '/ogc/collections/features/tiles');
    assert.equal(body.tilesets.length, 1);
    const [tileset] = body.tilesets;
    assert.deepEqual([tileset.dataType, tileset.crs, tileset.tileMatrixSetURI], [
      'vector', 'http://www.opengis.net/def/crs/EPSG/0/3857', 'http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad',
    ]);
    assert.equal(linkOf(tileset, 'self')!.href, `${t.origin}/ogc/collections/features/tiles/WebMercatorQuad`);
    assert.equal(linkOf(tileset, REL('tiling-scheme'))!.href, `${t.origin}/ogc/tileMatrixSets/WebMercatorQuad`);
  });

  test('the tileset: its templated tile link answers tiles, its box is the catalogue\'s, its layers are the TileJSON\'s', async () => {
    const body = await ogcJson(t, '/ogc/collections/features/tiles/WebMercatorQuad');
    const item = body.links.find((l: Link) => l.rel === 'item');
    assert.deepEqual([item.type, item.templated], [MVT, true]);
    const { z, x, y } = tileOf(feature.geometry.coordinates[0]![0]![0]!, 17);
    const href = item.href.replace('{tileMatrix}', z).replace('{tileRow}', y).replace('{tileCol}', x);
    const tile = await t.request(linkPath(t, href));
    assert.equal(tile.status, 200, href);
    assert.equal(tile.headers['content-type'], MVT);
    assert.ok(decodeLayers(tile.bytes).features.some((f) => f.id === feature.id));
    assertNear([...body.boundingBox.lowerLeft, ...body.boundingBox.upperRight], bounds, 'boundingBox');
    const tileJson = (await t.request('/tiles/features.json')).json();
    assert.deepEqual(
      body.layers.map((l: { id: string; propertiesSchema: { properties: object } }) => [l.id, Object.keys(l.propertiesSchema.properties)]),
      tileJson.vector_layers.map((l: { id: string; fields: object }) => [l.id, Object.keys(l.fields)]),
    );
    assert.deepEqual(body.layers.map((l: { geometryDimension: number }) => l.geometryDimension), [2, 0]);
    assert.equal(linkOf(body, 'alternate')!.href, `${t.origin}/tiles/features.json`);
    assert.equal((await t.request('/ogc/collections/features/tiles/WorldCRS84Quad')).status, 404);
    await ogc400(t, '/ogc/collections/features/tiles/WebMercatorQuad?f=html');
  });

  test('WebMercatorQuad: 25 tile matrices of 2^z × 2^z 256-pixel tiles, cell sizes the equator over 256 · 2^z', async () => {
    const list = await ogcJson(t, '/ogc/tileMatrixSets');
    assert.deepEqual(list.tileMatrixSets.map((s: { id: string }) => s.id), ['WebMercatorQuad']);
    const tms = await ogcJson(t, linkPath(t, list.tileMatrixSets[0].links[0].href));
    assert.equal(tms.crs, 'http://www.opengis.net/def/crs/EPSG/0/3857');
    assert.equal(tms.tileMatrices.length, 25);
    for (const [z, m] of tms.tileMatrices.entries()) {
      assert.deepEqual([m.id, m.matrixWidth, m.matrixHeight, m.tileWidth, m.tileHeight, m.cornerOfOrigin], [String(z), 2 ** z, 2 ** z, 256, 256, 'topLeft']);
      assert.ok(Math.abs(m.cellSize / (EQUATOR / 256 / 2 ** z) - 1) < 1e-9, `cell size at ${z}`);
      // A pixel of 0.28 mm (the standard's rendering pixel).
      assert.ok(Math.abs((m.scaleDenominator * 0.00028) / m.cellSize - 1) < 1e-9, `scale at ${z}`);
      assertNear(m.pointOfOrigin, [-EQUATOR / 2, EQUATOR / 2], `origin at ${z}`);
    }
    // The same set in OGC 17-083r2's encoding, which GDAL up to 3.6 reads (keyed on identifier).
    assert.deepEqual([tms.type, tms.identifier, tms.supportedCRS], ['TileMatrixSetType', 'WebMercatorQuad', tms.crs]);
    assert.deepEqual([tms.boundingBox.type, tms.boundingBox.lowerCorner, tms.boundingBox.upperCorner], ['BoundingBoxType', tms.boundingBox.lowerLeft, tms.boundingBox.upperRight]);
    assert.deepEqual(
      tms.tileMatrix,
      tms.tileMatrices.map((m: Record<string, unknown>) => ({
        type: 'TileMatrixType', identifier: m.id, scaleDenominator: m.scaleDenominator, topLeftCorner: m.pointOfOrigin,
        tileWidth: m.tileWidth, tileHeight: m.tileHeight, matrixWidth: m.matrixWidth, matrixHeight: m.matrixHeight,
      })),
    );
  });
});

describe('CORS on /tiles/ and /media/', () => {
  let t: TestApp;
  let root: string;
  const catalogue = buildTileCatalogue();
  const tile = `/tiles/features/16/${tileOf(catalogue.features[0]!.geometry.coordinates[0]![0]![0]!, 16).x}/${tileOf(catalogue.features[0]!.geometry.coordinates[0]![0]![0]!, 16).y}.mvt`;
  before(async () => {
    root = temporaryDir();
    fs.mkdirSync(path.join(root, 'categories'));
    fs.writeFileSync(path.join(root, 'categories/pubs.png'), 'PNGDATA');
    t = await startTestApp({ catalogue, settings: { mediaRoot: root } });
  });
  after(async () => {
    await t.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('a tile, the TileJSON, a media file and their refusals carry Access-Control-Allow-Origin for another site', async () => {
    for (const [url, status] of [[tile, 200], ['/tiles/features.json', 200], ['/media/categories/pubs.png', 200], ['/tiles/features/99/0/0.mvt', 400], ['/media/nothing.png', 404]] as const) {
      const answer = await t.request(url, { headers: { origin: OTHER_SITE } });
      assert.equal(answer.status, status, url);
      assert.equal(answer.headers['access-control-allow-origin'], '*', url);
      assert.match(String(answer.headers['access-control-expose-headers']), /ETag/, url);
      const plain = await t.request(url);
      assert.equal(plain.headers['access-control-allow-origin'], undefined, url);
    }
  });

  test('a preflight for a tile is answered', async () => {
    const answer = await t.request(tile, { method: 'OPTIONS', headers: { origin: OTHER_SITE, 'access-control-request-method': 'GET' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
  });

  test('with CORS_ORIGINS a list, a tile echoes a listed origin and varies by Origin, and refuses another', async () => {
    const listed = await startTestApp({ catalogue, settings: { corsOrigins: OTHER_SITE, compress: '1' } });
    try {
      const answer = await listed.request(tile, { headers: { origin: OTHER_SITE } });
      assert.equal(answer.headers['access-control-allow-origin'], OTHER_SITE);
      assert.deepEqual(String(answer.headers.vary).split(', ').sort(), ['Accept-Encoding', 'Origin']);
      const other = await listed.request(tile, { headers: { origin: 'http://elsewhere.example' } });
      assert.equal(other.status, 200);
      assert.equal(other.headers['access-control-allow-origin'], undefined);
    } finally {
      await listed.close();
    }
  });
});
