// Vector tiles: /tiles/features/{z}/{x}/{y}.mvt decoded with @mapbox/vector-tile. Which
// footprints belong in a tile, as polygons or as points, is computed here from the catalogue
// the test built, with the tests' own tile arithmetic (support/tile-math.ts, tile-catalogue.ts).
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { VectorTileFeature } from '@mapbox/vector-tile';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Catalogue } from '../../src/catalogue/format.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { HOLED_ID } from '../support/finding-catalogue.js';
import { socketTarget, type HttpTarget } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';
import {
  BIG_ID, CROWD, CROWD_CORNER, PARTS_ID, buildTileCatalogue, decodeLayers, drawn, expectedProperties, expectedTile, tilePath,
  type ExpectedTile, type Tile, type TileLayers,
} from '../support/tile-catalogue.js';
import { BUFFER, EXTENT, VISIBLE, boundsOf, exteriorArea, footprintMeetsRect, footprintSize, projectFootprint, tileOf, type Rect } from '../support/tile-math.js';

const MVT = 'application/vnd.mapbox-vector-tile';
const ZOOMS = [0, 2, 4, 6, 8, 10, 12, 13, 14, 15, 16, 18];

/** The polygons of a tile's bytes. */
function decode({ bytes }: { bytes: Buffer }): VectorTileFeature[] {
  return decodeLayers(bytes).features;
}

/** Both layers of a tile: empty for a 204. */
async function fetchLayers(target: HttpTarget, tile: Tile): Promise<TileLayers> {
  const answer = await target.request(tilePath(tile));
  if (answer.status === 204) {
    assert.equal(answer.bytes.length, 0);
    assert.equal(answer.headers['content-type'], undefined);
    return { features: [], points: [] };
  }
  assert.equal(answer.status, 200, tilePath(tile));
  assert.equal(answer.headers['content-type'], MVT);
  const layers = decodeLayers(answer.bytes);
  assert.ok(layers.features.length + layers.points.length > 0, `${tilePath(tile)}: an empty tile must be a 204`);
  return layers;
}

/** The polygons of a tile. */
async function fetchTile(target: HttpTarget, tile: Tile): Promise<VectorTileFeature[]> {
  return (await fetchLayers(target, tile)).features;
}

/** Each point stands for the small footprints of its cell: the lowest id, their count, near the lowest's centre. */
function checkPoints(points: VectorTileFeature[], expected: ExpectedTile, catalogue: Catalogue, where: string): void {
  const seenCells = new Set<string>();
  for (const point of points) {
    const id = point.id as number;
    const at = expected.smallAt.get(id);
    assert.ok(at, `${where}: point ${id} is no small footprint in the tile`);
    const cell = expected.cells.get(at.cell)!;
    assert.ok(!seenCells.has(at.cell), `${where}: two points in one cell`);
    seenCells.add(at.cell);
    assert.ok(cell.sure.every((other) => other >= id), `${where}: point ${id} is not the lowest id of its cell`);
    const count = point.properties.count as number;
    assert.ok(count >= cell.sure.length && count <= cell.maybe.length, `${where}: point ${id} counts ${count}, expected ${cell.sure.length}..${cell.maybe.length}`);
    assert.equal(point.type, 1);
    const p = point.loadGeometry()[0]![0]!;
    assert.ok(Math.abs(p.x - at.centre[0]) <= 1 && Math.abs(p.y - at.centre[1]) <= 1, `${where}: point ${id} at ${p.x},${p.y}, its centre ${at.centre}`);
    const category = catalogue.categories.find((c) => c.id === catalogue.features.find((f) => f.id === id)!.categories[0]);
    assert.deepEqual({ ...point.properties }, category ? { id, count, category_id: category.id } : { id, count });
  }
  for (const [key, cell] of expected.cells) if (cell.sure.length > 0) assert.ok(seenCells.has(key), `${where}: no point for ${cell.sure}`);
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

  test('each tile holds exactly the footprints that reach into it: polygons from 2 pixels across, points for the rest', async () => {
    const seenAtZ16 = new Set<number>();
    let [required, pointsChecked] = [0, 0];
    for (const tile of tilesWithVertices(catalogue)) {
      const { features, points } = await fetchLayers(t, tile);
      const ids = features.map((f) => f.properties.id as number);
      const expected = expectedTile(catalogue.features, tile);
      required += expected.must.size;
      for (const id of expected.must) assert.ok(ids.includes(id), `${tilePath(tile)} lacks feature ${id}`);
      for (const id of ids) assert.ok(expected.may.has(id), `${tilePath(tile)} has feature ${id}, which lies outside it or is under 2 pixels`);
      assert.equal(new Set(ids).size, ids.length, `${tilePath(tile)}: a feature twice`);
      for (const feature of features) {
        const f = byId.get(feature.properties.id as number)!;
        assert.equal(feature.id, f.id);
        assert.equal(feature.type, 3, 'polygon');
        assert.deepEqual({ ...feature.properties }, expectedProperties(f, catalogue, tile.z), `${tilePath(tile)} feature ${f.id}`);
        if (tile.z === 16) seenAtZ16.add(f.id);
      }
      checkPoints(points, expected, catalogue, tilePath(tile));
      pointsChecked += points.length;
    }
    assert.ok(required > 200, `only ${required} footprints were required: the test would prove little`);
    assert.ok(pointsChecked > 50, `only ${pointsChecked} points checked`);
    assert.deepEqual([...seenAtZ16].sort((a, b) => a - b), [...byId.keys()].sort((a, b) => a - b), 'every feature at zoom 16');
  });

  test('no footprint is lost: at every zoom, in the tile holding its centre, a polygon from 2 pixels across, else counted in a point', async () => {
    const sample = catalogue.features.filter((f, i) => f.id < 1000 || i % 17 === 0);
    for (let z = 0; z <= 22; z++) {
      const tiles = new Map<string, { tile: Tile; ids: number[] }>();
      for (const f of sample) {
        const projected = projectFootprint(f.geometry, z, 0, 0);
        const [cx, cy] = [0, 1].map((i) => (boundsOf(projected.flat(2))[i]! + boundsOf(projected.flat(2))[i + 2]!) / 2 / EXTENT);
        const tile = { z, x: Math.floor(cx!), y: Math.floor(cy!) };
        const entry = tiles.get(tilePath(tile)) ?? { tile, ids: [] };
        tiles.set(tilePath(tile), entry);
        entry.ids.push(f.id);
      }
      for (const { tile, ids } of tiles.values()) {
        const { features, points } = await fetchLayers(t, tile);
        const drawnIds = new Set(features.map((f) => f.id));
        const counted = points.reduce((sum, p) => sum + (p.properties.count as number), 0);
        for (const id of ids) {
          const projected = projectFootprint(byId.get(id)!.geometry, tile.z, tile.x, tile.y);
          const size = Math.sqrt(exteriorArea(projected));
          if (size >= VISIBLE + 0.5 && footprintMeetsRect(projected, [0, 0, EXTENT, EXTENT])) assert.ok(drawnIds.has(id), `${tilePath(tile)}: feature ${id} (${size.toFixed(1)} units) not drawn`);
          if (size < VISIBLE - 0.5) assert.ok(!drawnIds.has(id) && points.length > 0, `${tilePath(tile)}: feature ${id} (${size.toFixed(1)} units) not a point`);
        }
        assert.ok(drawnIds.size + counted >= ids.filter((id) => footprintMeetsRect(projectFootprint(byId.get(id)!.geometry, tile.z, tile.x, tile.y), [0, 0, EXTENT, EXTENT])).length, `${tilePath(tile)}: ${ids.length} footprints, ${drawnIds.size} drawn and ${counted} counted`);
      }
    }
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
    assert.equal((await t.request('/tiles/features/0/0/0.mvt', { headers: { host: 'api.test' } })).status, 200);
  } finally {
    await t.close();
  }
});

describe('vector tiles: crowded tiles are made at import', () => {
  const catalogue = buildTileCatalogue();
  /** The crowd's corner, in a tile of every zoom until the crowd's tiles hold 1,000 or fewer. */
  const crowdCorner = CROWD_CORNER;

  test('the crowd\'s tiles from zoom 0 down are in the tiles table, and zoom 12 is served as stored', async () => {
    const database = createTestDatabase();
    const t = await startTestApp({ catalogue, database });
    try {
      // Down to zoom 0 the tile holding the crowd is stored, with the crowd as points.
      for (const z of [0, 4, 8]) assert.notEqual(await storedTile(database, tileOf(crowdCorner, z)), undefined, `zoom ${z}`);
      const tile = tileOf(crowdCorner, 12);
      const stored = await storedTile(database, tile);
      assert.ok(stored, 'zoom 12 stored with bytes');
      const served = await t.request(tilePath(tile));
      assert.equal(served.status, 200);
      assert.ok(served.bytes.equals(stored), 'served as stored');
      const { features, points } = decodeLayers(served.bytes);
      assert.ok(features.length + points.reduce((sum, p) => sum + (p.properties.count as number), 0) >= CROWD, 'the whole crowd is in it');
    } finally {
      await t.close();
    }
  });
});

// Oracle: the tile as made at import (itself checked against tile-math.ts above), for the same tile made on request.
describe('vector tiles: one encoder, whether a tile is made at import or on request', () => {
  const catalogue = buildTileCatalogue();
  const crowdCorner = CROWD_CORNER;
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
          const atImport: unknown[] = bytes ? Object.values(decodeLayers(bytes)).map(drawn) : [];
          const onRequest = Object.values(await fetchLayers(listening, tile)).map(drawn);
          assert.deepEqual(onRequest, atImport, tilePath(tile));
          compared += (onRequest as unknown[][]).flat().length;
        }
        assert.ok(compared > 50, `only ${compared} footprints and points compared`);
      } finally {
        await server.close();
      }
    } finally {
      await database.drop();
    }
  });
});

// Issue 33, defect 7: positions may reach latitude ±90, where web mercator has none; the grid
// ends at 85.0511…° (atan(sinh(π))). A footprint past it is drawn up to the edge, never lost.
describe('vector tiles: footprints reaching the poles', () => {
  const EDGE = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;
  const POLAR = [
    { id: 9001, box: [10, 84.9, 10.5, 90], north: true, what: 'across the north edge to the pole' },
    { id: 9002, box: [20, 88, 20.001, 90], north: true, what: 'wholly past the north edge' },
    { id: 9003, box: [-30, -90, -29.5, -84.9], north: false, what: 'across the south edge to the pole' },
    { id: 9004, box: [-40, -90, -39.999, -88], north: false, what: 'wholly past the south edge' },
  ] as const;
  const catalogue = buildTileCatalogue();
  const template = catalogue.features.find((f) => f.id === BIG_ID)!;
  for (const { id, box: [w, s, e, n] } of POLAR) {
    catalogue.features.push({ ...template, id, address: `Polar ${id}`, search_str: `Polar ${id}`, geometry: { type: 'MultiPolygon', coordinates: [[[[w, s], [e, s], [e, n], [w, n], [w, s]]]] } });
  }
  let database: TestDatabase;
  let t: TestApp;
  before(async () => {
    database = createTestDatabase();
    t = await startTestApp({ catalogue, database });
  });
  after(() => t.close());

  test('each is in its tile on the grid\'s edge at every zoom, a polygon clipped at the edge or counted in a point there', async () => {
    // More than 1,000 footprints: zoom 0 (and zoom 1's north-east) are made at import, the rest on request.
    assert.notEqual(await storedTile(database, { z: 0, x: 0, y: 0 }), undefined, 'zoom 0 made at import');
    const kinds = new Set<string>();
    for (let z = 0; z <= 22; z++) {
      for (const { id, box, north, what } of POLAR) {
        const lon = (box[0] + box[2]) / 2;
        const tile = { z, x: Math.floor(((lon + 180) / 360) * 2 ** z), y: north ? 0 : 2 ** z - 1 };
        const where = `${tilePath(tile)}: ${id} (${what})`;
        const { features, points } = await fetchLayers(t, tile);
        const polygon = features.find((f) => f.id === id);
        const point = points.find((p) => p.id === id);
        assert.ok(polygon || point, `${where}: missing`);
        const edge = north ? 0 : EXTENT;
        if (polygon) {
          kinds.add('polygon');
          const ys = polygon.loadGeometry().flat().map((p) => p.y);
          // Up to the edge and not past it: the grid has nothing beyond.
          assert.equal(north ? Math.min(...ys) : Math.max(...ys), edge, `${where}: not drawn to the edge`);
        } else {
          kinds.add(z === 0 ? 'point at zoom 0' : 'point');
          assert.equal(point!.properties.count, 1, where);
          const { y } = point!.loadGeometry()[0]![0]!;
          const wholly = north ? box[1] >= EDGE : box[3] <= -EDGE;
          if (wholly) assert.equal(y, edge, `${where}: its point is on the edge`);
        }
      }
    }
    assert.deepEqual([...kinds].sort(), ['point', 'point at zoom 0', 'polygon']);
  });
});

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
