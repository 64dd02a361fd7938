// Vector tiles: /tiles/features/{z}/{x}/{y}.mvt decoded with @mapbox/vector-tile. Which
// footprints belong in a tile is computed here from the catalogue the test built, with the
// tests' own tile arithmetic (support/tile-math.ts).
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import Database from 'better-sqlite3';
import { PbfReader } from 'pbf';
import pg from 'pg';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { buildFindingCatalogue, HOLED_ID } from '../support/finding-catalogue.js';
import { socketTarget, type Answer, type HttpTarget } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';
import { BUFFER, EXTENT, boundsOf, footprintMeetsRect, footprintSize, projectFootprint, tileOf, type Rect } from '../support/tile-math.js';

const MVT = 'application/vnd.mapbox-vector-tile';
const BIG_ID = 301;
const PARTS_ID = 302;
/** More than CROWDED_ABOVE (1000). */
const CROWD = 1120;
const ZOOMS = [2, 6, 10, 12, 14, 16, 18];

interface Tile {
  z: number;
  x: number;
  y: number;
}

const tilePath = ({ z, x, y }: Tile) => `/tiles/features/${z}/${x}/${y}.mvt`;

const rect = (x1: number, y1: number, x2: number, y2: number): [number, number][] => [[x1, y1], [x2, y1], [x2, y2], [x1, y2], [x1, y1]];

/**
 * The finding-things catalogue, a large area (so that small zooms have something to draw),
 * a footprint of two parts, each with a courtyard, and a crowd: more footprints in one
 * spot than a tile is made of on request, so that some of its tiles are made at import.
 */
function buildTileCatalogue(): Catalogue {
  const catalogue = buildFindingCatalogue();
  const area = { feature_type: 'GREATER_WHITECHAPEL' as const, b_number: null, b_name: null, street: null, postcode: 'E1', current: null, site: null, tags: [] };
  catalogue.features.push(
    { ...area, id: BIG_ID, address: 'Mile End', categories: [4], search_str: 'Mile End', geometry: { type: 'MultiPolygon', coordinates: [[rect(-0.06, 51.52, -0.03, 51.535)]] } },
    { ...area, id: PARTS_ID, address: 'Two yards', categories: [], search_str: 'Two yards',
      geometry: { type: 'MultiPolygon', coordinates: [
        [rect(0.37, 51.6, 0.38, 51.61), rect(0.372, 51.602, 0.378, 51.608)],
        [rect(0.40, 51.6, 0.41, 51.61), rect(0.402, 51.602, 0.408, 51.608)],
      ] } },
  );
  for (let i = 0; i < CROWD; i++) {
    const [lon, lat] = [0.5 + (i % 40) * 0.000125, 51.6 + Math.floor(i / 40) * 0.000125];
    catalogue.features.push({
      id: 1000 + i, feature_type: 'WHITECHAPEL_BUILDING', b_number: String(i), b_name: i % 2 ? `Crowd ${i}` : null, street: 'Crowd Row',
      postcode: 'E1 1AA', address: `${i} Crowd Row`, current: null, site: null, categories: i % 3 ? [3] : [], tags: [],
      search_str: `${i} Crowd Row`, geometry: { type: 'MultiPolygon', coordinates: [[rect(lon, lat, lon + 0.0001, lat + 0.0001)]] },
    });
  }
  return catalogue;
}

function decode({ bytes }: { bytes: Buffer }): VectorTileFeature[] {
  const tile = new VectorTile(new PbfReader(bytes));
  assert.deepEqual(Object.keys(tile.layers), ['features']);
  const layer = tile.layers.features!;
  assert.equal(layer.extent, EXTENT);
  return Array.from({ length: layer.length }, (_, i) => layer.feature(i));
}

/** The features of a tile: none for a 204, else the decoded layer. */
async function fetchTile(target: HttpTarget, tile: Tile): Promise<VectorTileFeature[]> {
  const answer = await target.request(tilePath(tile));
  if (answer.status === 204) {
    assert.equal(answer.bytes.length, 0);
    assert.equal(answer.headers['content-type'], undefined);
    return [];
  }
  assert.equal(answer.status, 200, tilePath(tile));
  assert.equal(answer.headers['content-type'], MVT);
  const features = decode(answer);
  assert.ok(features.length > 0, `${tilePath(tile)}: an empty tile must be a 204`);
  return features;
}

/**
 * Footprints that must be in a tile (they reach into the buffered tile by more than rounding,
 * and are large enough for no encoder to drop) and those that may be (they come within a
 * unit of the buffered tile).
 */
function expectedIn(features: readonly Feature[], { z, x, y }: Tile): { must: Set<number>; may: Set<number> } {
  const must = new Set<number>();
  const may = new Set<number>();
  for (const f of features) {
    const projected = projectFootprint(f.geometry, z, x, y);
    if (footprintMeetsRect(projected, [-BUFFER - 1, -BUFFER - 1, EXTENT + BUFFER + 1, EXTENT + BUFFER + 1])) may.add(f.id);
    if (footprintSize(projected) >= 3 && footprintMeetsRect(projected, [-BUFFER + 2, -BUFFER + 2, EXTENT + BUFFER - 2, EXTENT + BUFFER - 2])) must.add(f.id);
  }
  return { must, may };
}

function expectedProperties(f: Feature, catalogue: Catalogue): Record<string, unknown> {
  const properties: Record<string, unknown> = { id: f.id, feature_type: f.feature_type };
  const first = catalogue.categories.find((c) => c.id === f.categories[0]);
  if (first) Object.assign(properties, { category: first.name, category_id: first.id });
  if (f.b_name !== null) properties.b_name = f.b_name;
  return properties;
}

/** Every tile holding a vertex of some footprint, at each zoom. */
function tilesWithVertices(catalogue: Catalogue): Tile[] {
  const seen = new Map<string, Tile>();
  for (const z of ZOOMS) {
    for (const f of catalogue.features) {
      for (const position of f.geometry.coordinates.flat(2)) {
        const tile = tileOf(position, z);
        seen.set(tilePath(tile), tile);
      }
    }
  }
  return [...seen.values()];
}

describe('vector tiles', () => {
  const catalogue = buildTileCatalogue();
  const byId = new Map(catalogue.features.map((f) => [f.id, f]));
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue });
  });
  after(() => t.close());

  test('each tile holds exactly the footprints that reach into it, with their properties', async () => {
    const seenAtZ16 = new Set<number>();
    let required = 0;
    for (const tile of tilesWithVertices(catalogue)) {
      const features = await fetchTile(t, tile);
      const ids = features.map((f) => f.properties.id as number);
      const { must, may } = expectedIn(catalogue.features, tile);
      required += must.size;
      for (const id of must) assert.ok(ids.includes(id), `${tilePath(tile)} lacks feature ${id}`);
      for (const id of ids) assert.ok(may.has(id), `${tilePath(tile)} has feature ${id}, which lies outside it`);
      assert.equal(new Set(ids).size, ids.length, `${tilePath(tile)}: a feature twice`);
      for (const feature of features) {
        const f = byId.get(feature.properties.id as number)!;
        assert.equal(feature.id, f.id);
        assert.equal(feature.type, 3, 'polygon');
        assert.deepEqual({ ...feature.properties }, expectedProperties(f, catalogue), `${tilePath(tile)} feature ${f.id}`);
        if (tile.z === 16) seenAtZ16.add(f.id);
      }
    }
    assert.ok(required > 200, `only ${required} footprints were required: the test would prove little`);
    assert.deepEqual([...seenAtZ16].sort((a, b) => a - b), [...byId.keys()].sort((a, b) => a - b), 'every feature at zoom 16');
  });

  test('footprints are drawn where they are: coordinates in tile units, inside the buffer', async () => {
    let compared = 0;
    for (const tile of tilesWithVertices(catalogue).filter((tile) => tile.z >= 14)) {
      for (const feature of await fetchTile(t, tile)) {
        const points = feature.loadGeometry().flat().map((p) => [p.x, p.y] as [number, number]);
        const [minX, minY, maxX, maxY] = boundsOf(points);
        assert.ok(minX >= -BUFFER - 1 && minY >= -BUFFER - 1 && maxX <= EXTENT + BUFFER + 1 && maxY <= EXTENT + BUFFER + 1, `${tilePath(tile)}: outside the buffer`);
        const projected = projectFootprint(byId.get(feature.properties.id as number)!.geometry, tile.z, tile.x, tile.y);
        const expected = boundsOf(projected.flat(2));
        if (expected[0] < -BUFFER || expected[1] < -BUFFER || expected[2] > EXTENT + BUFFER || expected[3] > EXTENT + BUFFER) continue;
        // Wholly inside: the drawn box is the footprint's box, within rounding and a unit of simplification.
        expected.forEach((value, i) => assert.ok(Math.abs(value - [minX, minY, maxX, maxY][i]!) <= 2, `${tilePath(tile)} feature ${feature.id}: ${expected} drawn at ${[minX, minY, maxX, maxY]}`));
        compared++;
      }
    }
    assert.ok(compared > 100, `only ${compared} footprints compared`);
  });

  test('polygons keep their parts and holes (exterior and interior rings wound as MVT requires)', async () => {
    const checked = new Set<number>();
    for (const tile of tilesWithVertices(catalogue).filter((tile) => tile.z >= 10)) {
      for (const feature of await fetchTile(t, tile)) {
        const f = byId.get(feature.properties.id as number)!;
        const projected = projectFootprint(f.geometry, tile.z, tile.x, tile.y);
        const inside = (rect: Rect) => rect[0] >= 0 && rect[1] >= 0 && rect[2] <= EXTENT && rect[3] <= EXTENT;
        const everyRingLarge = projected.every((rings) => rings.every((ring) => footprintSize([[ring]]) >= 4));
        if (!inside(boundsOf(projected.flat(2))) || !everyRingLarge) continue;
        const geometry = feature.toGeoJSON(tile.x, tile.y, tile.z).geometry;
        const polygons = geometry.type === 'MultiPolygon' ? geometry.coordinates : geometry.type === 'Polygon' ? [geometry.coordinates] : [];
        assert.deepEqual(polygons.map((rings) => rings.length), f.geometry.coordinates.map((rings) => rings.length), `${tilePath(tile)} feature ${f.id}`);
        checked.add(f.id);
      }
    }
    assert.ok(checked.has(PARTS_ID), 'two parts, each with a courtyard');
    assert.ok(checked.has(HOLED_ID), 'a square with a hole');
  });

  test('a tile inside a large footprint at zoom 22 holds it; a tile far away is 204 No Content', async () => {
    const inner = tileOf([-0.045, 51.5275], 22);
    const features = await fetchTile(t, inner);
    assert.deepEqual(features.map((f) => f.properties.id), [BIG_ID]);
    const empty = await t.request('/tiles/features/10/0/0.mvt');
    assert.equal(empty.status, 204);
    assert.equal(empty.bytes.length, 0);
    assert.match(empty.headers.etag ?? '', /^"\d+-[\w-]+"$/);
    assert.equal(empty.headers['cache-control'], 'public, max-age=60');
    assert.equal((await t.request('/tiles/features/10/0/0.mvt', { headers: { 'if-none-match': empty.headers.etag! } })).status, 304);
  });

  test('HEAD: the GET headers, no body; a query string changes nothing', async () => {
    const tile = tileOf(catalogue.features[0]!.geometry.coordinates[0]![0]![0]!, 16);
    const get = await t.request(tilePath(tile));
    assert.equal(get.status, 200);
    const head = await t.request(tilePath(tile), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.bytes.length, 0);
    assert.equal(head.headers['content-type'], MVT);
    assert.equal(head.headers.etag, get.headers.etag);
    assert.equal(head.headers['content-length'], String(get.bytes.length));
    const queried = await t.request(`${tilePath(tile)}?v=2`);
    assert.equal(queried.headers.etag, get.headers.etag);
    assert.ok(queried.bytes.equals(get.bytes));
  });

  const BAD = [
    '/tiles/features/23/0/0.mvt',
    '/tiles/features/1/2/0.mvt',
    '/tiles/features/1/0/2.mvt',
    '/tiles/features/0/1/0.mvt',
    '/tiles/features/-1/0/0.mvt',
    '/tiles/features/1/-1/0.mvt',
    '/tiles/features/1/0/-1.mvt',
    '/tiles/features/a/0/0.mvt',
    '/tiles/features/1.5/0/0.mvt',
    '/tiles/features/1/0/0.5.mvt',
    '/tiles/features/1/0/+1.mvt',
    '/tiles/features/1/0/0x1.mvt',
    '/tiles/features/1/0/1e0.mvt',
    '/tiles/features/99999999999999999999/0/0.mvt',
    '/tiles/features/22/4194304/0.mvt',
    '/tiles/features/3/0/99999999.mvt',
    '/tiles/features/1/0/0',
    '/tiles/features/1/0/0.png',
    '/tiles/features/1/0/0.pbf',
    '/tiles/features/1/0/0.mvt.gz',
    '/tiles/features/1/0/0.mvt/',
    '/tiles/features/1/0/0/0.mvt',
    '/tiles/features/1/0.mvt',
    '/tiles/features/',
    '/tiles/features/1//0/0.mvt',
  ];
  for (const path of BAD) {
    test(`GET ${path} is 400 with a JSON detail`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 400);
      assert.equal(answer.headers['content-type'], 'application/json');
      assert.deepEqual(answer.json(), {
        detail: 'Invalid tile: z must be an integer from 0 to 22, x and y integers from 0 to 2^z - 1, as in /tiles/features/{z}/{x}/{y}.mvt.',
      });
      assert.equal(answer.headers.etag, undefined);
    });
  }

  test('the largest tile of the grid is a tile', async () => {
    assert.equal((await t.request('/tiles/features/22/4194303/4194303.mvt')).status, 204);
  });

  test('other methods are 405 with Allow: GET, HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await t.request('/tiles/features/0/0/0.mvt', { method });
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.allow, 'GET, HEAD');
      assert.deepEqual(answer.json(), { detail: `Method "${method}" not allowed.` });
    }
  });
});

describe('vector tiles: caching', () => {
  let t: TestApp;
  let database: TestDatabase;
  const catalogue = buildTileCatalogue();
  const tile = tileOf(catalogue.features[0]!.geometry.coordinates[0]![0]![0]!, 16);
  before(async () => {
    database = createTestDatabase();
    t = await startTestApp({ catalogue, database, settings: { versionPollMs: '50' } });
  });
  after(() => t.close());

  test('a strong ETag and Cache-Control; If-None-Match gives 304 with no body', async () => {
    const first = await t.request(tilePath(tile));
    assert.equal(first.status, 200);
    assert.match(first.headers.etag!, /^"\d+-[\w-]+"$/);
    assert.equal(first.headers['cache-control'], 'public, max-age=60');
    for (const header of [first.headers.etag!, `W/${first.headers.etag}`, '*']) {
      const again = await t.request(tilePath(tile), { headers: { 'if-none-match': header } });
      assert.equal(again.status, 304, header);
      assert.equal(again.bytes.length, 0);
      assert.equal(again.headers.etag, first.headers.etag);
    }
    const other = await t.request(tilePath(tile), { headers: { 'if-none-match': '"0-nothing"' } });
    assert.equal(other.status, 200);
    assert.ok(other.bytes.equals(first.bytes));
    const neighbour = await t.request(tilePath({ ...tile, x: tile.x + 1 }));
    assert.notEqual(neighbour.headers.etag, first.headers.etag);
  });

  test('a new import changes the tile and its ETag, within a poll', async () => {
    const before = await t.request(tilePath(tile));
    const changed = buildTileCatalogue();
    Object.assign(changed.features[0]!, { b_name: 'Renamed station', categories: [3] });
    await importInto(database.settings, changed);
    const deadline = Date.now() + 2000;
    let after = before;
    while (Date.now() < deadline && after.headers.etag === before.headers.etag) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await t.request(tilePath(tile));
    }
    assert.notEqual(after.headers.etag, before.headers.etag);
    const renamed = decode(after).find((f) => f.properties.id === 1)!;
    assert.deepEqual({ ...renamed.properties }, { id: 1, feature_type: 'WHITECHAPEL_BUILDING', category: 'Pubs', category_id: 3, b_name: 'Renamed station' });
  });
});

test('vector tiles with --compress: gzip and brotli decode to the same tile; Vary: Accept-Encoding', async () => {
  const catalogue = buildTileCatalogue();
  const t = await startTestApp({ catalogue, settings: { compress: '1' } });
  try {
    const tile = tileOf(catalogue.features[0]!.geometry.coordinates[0]![0]![0]!, 14);
    const plain = await t.request(tilePath(tile));
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    for (const [accept, encoding, unpack] of [['gzip', 'gzip', zlib.gunzipSync], ['br', 'br', zlib.brotliDecompressSync]] as const) {
      const packed = await t.request(tilePath(tile), { headers: { 'accept-encoding': accept } });
      assert.equal(packed.headers['content-encoding'], encoding);
      assert.equal(packed.headers['content-type'], MVT);
      assert.ok(unpack(packed.bytes).equals(plain.bytes));
    }
  } finally {
    await t.close();
  }
});

test('the Host check applies to tiles', async () => {
  const t = await startTestApp({ settings: { allowedHosts: 'api.test' } });
  try {
    const refused = await t.request('/tiles/features/0/0/0.mvt');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json(), { detail: 'Invalid host header.' });
    assert.equal((await t.request('/tiles/features/0/0/0.mvt', { headers: { host: 'api.test' } })).status, 204);
  } finally {
    await t.close();
  }
});

describe('vector tiles: crowded tiles are made at import', () => {
  const catalogue = buildTileCatalogue();
  /** The crowd's corner, in a tile of every zoom until the crowd's tiles hold 1,000 or fewer. */
  const crowdCorner = [0.5, 51.6];

  test('the crowd\'s tiles from zoom 0 down are in the tiles table, and zoom 12 is served as stored', async () => {
    const database = createTestDatabase();
    const t = await startTestApp({ catalogue, database });
    try {
      // Down to zoom 0 the tile holding the crowd is stored (PostGIS drops footprints smaller
      // than a tile unit, so the smallest zooms may be stored empty there).
      for (const z of [0, 4, 8]) assert.notEqual(await storedTile(database, tileOf(crowdCorner, z)), undefined, `zoom ${z}`);
      const tile = tileOf(crowdCorner, 12);
      const stored = await storedTile(database, tile);
      assert.ok(stored, 'zoom 12 stored with bytes');
      const served = await t.request(tilePath(tile));
      assert.equal(served.status, 200);
      assert.ok(served.bytes.equals(stored), 'served as stored');
      assert.ok(decode(served).length > 1000, 'the whole crowd is in it');
    } finally {
      await t.close();
    }
  });
});

// Oracle: the tile as made at import (itself checked against tile-math.ts above), for the same tile made on request.
describe('vector tiles: one encoder, whether a tile is made at import or on request', () => {
  const catalogue = buildTileCatalogue();
  const crowdCorner = [0.5, 51.6];
  const crowdTiles = [0, 4, 8, 12].map((z) => tileOf(crowdCorner, z));

  test('a crowded tile as made at import and the same tile made on request draw every footprint alike', async () => {
    const database = createTestDatabase();
    try {
      await importInto(database.settings, catalogue);
      const stored = await Promise.all(crowdTiles.map((tile) => storedTile(database, tile)));
      assert.ok(stored.every((bytes) => bytes !== undefined), 'the crowd\'s tiles were made at import');
      // Without their stored rows the server has to make these tiles on request.
      for (const { z, x, y } of crowdTiles) await queryDatabase(database, 'DELETE FROM tiles WHERE z = $1 AND x = $2 AND y = $3', [z, x, y]);
      assert.ok((await Promise.all(crowdTiles.map((tile) => storedTile(database, tile)))).every((bytes) => bytes === undefined));
      const server = await startServer(loadConfig({ ...database.settings, port: '0', host: '127.0.0.1', logLevel: 'silent' }, {}));
      try {
        const listening = socketTarget(server.address);
        let compared = 0;
        for (const [i, tile] of crowdTiles.entries()) {
          const bytes: Buffer | null | undefined = stored[i];
          const atImport: unknown[] = bytes ? drawn(decode({ bytes })) : [];
          const onRequest = drawn(await fetchTile(listening, tile));
          assert.deepEqual(onRequest, atImport, tilePath(tile));
          compared += onRequest.length;
        }
        assert.ok(compared > 1000, `only ${compared} footprints compared`);
      } finally {
        await server.close();
      }
    } finally {
      await database.drop();
    }
  });
});

/** What a map gets of each feature of a tile: id, properties and rings of points. */
function drawn(features: VectorTileFeature[]): unknown[] {
  return features.map((f) => ({ id: f.id, properties: { ...f.properties }, rings: f.loadGeometry().map((ring) => ring.map((p) => [p.x, p.y])) }));
}

/** The tile's bytes as stored at import, read straight from the database: null when stored empty, undefined when not stored. */
async function storedTile(database: TestDatabase, { z, x, y }: Tile): Promise<Buffer | null | undefined> {
  const rows = await queryDatabase(database, 'SELECT mvt FROM tiles WHERE z = $1 AND x = $2 AND y = $3', [z, x, y]);
  return rows.length === 0 ? undefined : (rows[0]!.mvt as Buffer | null);
}

/** Runs one statement straight on the test's database ($n parameters), bypassing the server. */
async function queryDatabase(database: TestDatabase, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  if (database.settings.databaseSchema !== undefined) {
    const client = new pg.Client({ connectionString: database.settings.database, options: `-c search_path=${database.settings.databaseSchema}` });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(database.settings.database!);
  try {
    const statement = db.prepare(sql.replace(/\$\d/g, '?'));
    if (!statement.reader) {
      statement.run(...params);
      return [];
    }
    return statement.all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}
