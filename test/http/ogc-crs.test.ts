// OGC API – Features Part 2 (CRS by reference) on the app: every coordinate the server writes
// in EPSG:27700 and EPSG:3857 against PROJ's cs2cs (same transformations, PROJ strings written
// in test/support/proj.ts) within 1 mm, EPSG:4326 an exact axis swap; bbox-crs against the
// test's own intersection in the projected plane; filter-crs against the same filter written in
// CRS84; Content-Crs on every answer with coordinates; the refusals; the collections, the
// conformance class and the API definition; GDAL reading the files (f=gpkg, f=fgb).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { MultiPolygon } from '../../src/catalogue/format.js';
import { gdal, gdalSkipReason } from '../support/gdal.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { boxPolygon, footprintMeets, type Polygon } from '../support/ogc-geometry.js';
import { britainCatalogue, cs2cs, positionsOf, projSkipReason, URI, type ProjectedUri, type XY } from '../support/proj.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const CATALOGUE = britainCatalogue();
const FEATURES = [...CATALOGUE.features].sort((a, b) => a.id - b.id);
const ITEMS = '/ogc/collections/features/items';
const enc = encodeURIComponent;
const MM = 0.001;
const noProj = projSkipReason();

type Geometry = { type: string; coordinates: number[][][][] };
type Item = { id: number; geometry: Geometry };

let t: TestApp;
/** What the comparisons with PROJ measured, printed at the end. */
const measured: string[] = [];
before(async () => {
  t = await startTestApp({ catalogue: CATALOGUE });
});
after(async () => {
  for (const line of measured) console.log(line);
  await t.close();
});

async function page(query: string): Promise<{ features: Item[]; links: { rel: string; href: string }[]; headers: Record<string, unknown> }> {
  const answer = await t.request(`${ITEMS}?limit=10000&${query}`);
  assert.equal(answer.status, 200, `${query}: ${answer.text.slice(0, 300)}`);
  return { ...answer.json(), headers: answer.headers };
}

const ids = async (query: string) => (await page(query)).features.map((f) => f.id).sort((a, b) => a - b);

/** Each server coordinate within 1 mm of cs2cs's for the same CRS84 position. */
async function assertLikeProj(target: ProjectedUri, served: readonly XY[], crs84: readonly XY[], what: string): Promise<void> {
  assert.equal(served.length, crs84.length, `${what}: as many positions`);
  const expected = await cs2cs(target, crs84);
  let worst = 0;
  served.forEach(([x, y], i) => {
    const [ex, ey] = expected[i]!;
    worst = Math.max(worst, Math.abs(x - ex), Math.abs(y - ey));
    assert.ok(Math.abs(x - ex) <= MM && Math.abs(y - ey) <= MM, `${what}: position ${i} [${x}, ${y}] against PROJ's [${ex}, ${ey}]`);
  });
  measured.push(`${what}: ${served.length} positions, the largest difference from PROJ ${(worst * 1000).toFixed(3)} mm`);
}

describe('crs: the coordinates of every answer against PROJ', { skip: noProj }, () => {
  for (const target of [URI.epsg27700, URI.epsg3857] as const) {
    test(`${target}: every footprint's every position within 1 mm of cs2cs, from Shetland to Cornwall`, async () => {
      const plain = await page('');
      const projected = await page(`crs=${enc(target)}`);
      assert.equal(projected.features.length, FEATURES.length);
      assert.deepEqual(projected.features.map((f) => f.id), plain.features.map((f) => f.id));
      await assertLikeProj(target, projected.features.flatMap((f) => positionsOf(f.geometry)), plain.features.flatMap((f) => positionsOf(f.geometry)), `${target} items`);
    });

    test(`${target}: a single item, the next page, and the GeoJSON and CSV downloads hold the same coordinates`, async () => {
      const feature = FEATURES.at(-1)!;
      const crs84 = positionsOf(feature.geometry as unknown as Geometry);
      const item = await t.request(`${ITEMS}/${feature.id}?crs=${enc(target)}`);
      assert.equal(item.status, 200);
      await assertLikeProj(target, positionsOf(item.json().geometry), crs84, 'item');
      const first = await t.request(`${ITEMS}?limit=5&crs=${enc(target)}`);
      const next = first.json().links.find((l: { rel: string }) => l.rel === 'next').href as string;
      assert.equal(new URL(next).searchParams.get('crs'), target, 'next keeps crs');
      const second = await t.request(next.slice(t.origin.length));
      assert.equal(second.headers['content-crs'], `<${target}>`);
      const secondIds = second.json().features.map((f: Item) => f.id);
      await assertLikeProj(target, second.json().features.flatMap((f: Item) => positionsOf(f.geometry)),
        FEATURES.filter((f) => secondIds.includes(f.id)).flatMap((f) => positionsOf(f.geometry as unknown as Geometry)), 'next page');
      const download = await t.request(`${ITEMS}?f=geojson&crs=${enc(target)}`);
      assert.equal(download.headers['content-crs'], `<${target}>`);
      const downloaded: Item[] = download.json().features;
      await assertLikeProj(target, downloaded.flatMap((f) => positionsOf(f.geometry)),
        downloaded.flatMap((f) => positionsOf(FEATURES.find((g) => g.id === f.id)!.geometry as unknown as Geometry)), 'GeoJSON download');
      const csv = await t.request(`${ITEMS}?f=csv&crs=${enc(target)}&properties=id`);
      const lines = csv.text.trim().split('\r\n');
      assert.equal(lines[0], 'id,wkt,x,y');
      const row = lines.find((l) => l.startsWith(`${feature.id},`))!;
      const wkt = /"MULTIPOLYGON \((.*)\)"/.exec(row)![1]!;
      const served = [...wkt.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m): XY => [Number(m[1]), Number(m[2])]);
      await assertLikeProj(target, served, crs84, 'CSV download');
    });
  }

  test('EPSG:4326: every position is the stored one, latitude first, exactly', async () => {
    const plain = await page('');
    const swapped = await page(`crs=${enc(URI.epsg4326)}`);
    assert.deepEqual(swapped.features.map((f) => positionsOf(f.geometry)), plain.features.map((f) => positionsOf(f.geometry).map(([x, y]): XY => [y, x])));
    // And the stored positions are the catalogue's, as given.
    assert.deepEqual(plain.features.map((f) => f.geometry), FEATURES.map((f) => f.geometry));
  });
});

describe('bbox-crs and filter-crs', { skip: noProj }, () => {
  /** Ids whose footprint, projected by cs2cs, meets the polygon in the projected plane. */
  async function meetingInPlane(target: ProjectedUri, area: (grow: number) => Polygon): Promise<{ sure: number[]; possible: number[] }> {
    const flat = FEATURES.flatMap((f) => positionsOf(f.geometry as unknown as Geometry));
    const projected = await cs2cs(target, flat);
    let at = 0;
    const footprints = FEATURES.map((f) => {
      const g = f.geometry as unknown as Geometry;
      const coordinates = g.coordinates.map((p) => p.map((r) => r.map(() => projected[at++]!)));
      return { id: f.id, footprint: { type: 'MultiPolygon', coordinates } as unknown as MultiPolygon };
    });
    // 1 cm either way: a footprint that close to the edge may fall either side of it.
    const meeting = (grow: number) => footprints.filter((f) => footprintMeets(f.footprint, area(grow))).map((f) => f.id);
    return { sure: meeting(-0.01), possible: meeting(0.01) };
  }

  const within = (found: number[], expected: { sure: number[]; possible: number[] }, what: string) => {
    assert.ok(expected.sure.length > 0 && expected.possible.length < FEATURES.length, `${what}: a box that splits the catalogue`);
    for (const id of expected.sure) assert.ok(found.includes(id), `${what}: ${id} is found`);
    for (const id of found) assert.ok(expected.possible.includes(id), `${what}: ${id} is not in the box`);
  };

  /** Boxes of British National Grid over Whitechapel and over the copies in Edinburgh and Cornwall. */
  const BNG_BOXES: readonly [number, number, number, number][] = [[533900, 181300, 534600, 181900], [325000, 673000, 326500, 674200], [147000, 30000, 147600, 30800]];

  for (const box of BNG_BOXES) {
    test(`bbox-crs EPSG:27700 ${box.join(',')}: the footprints that meet that box in the grid's plane`, async () => {
      const [x0, y0, x1, y1] = box;
      const expected = await meetingInPlane(URI.epsg27700, (g) => boxPolygon(x0 - g, y0 - g, x1 + g, y1 + g));
      const found = await ids(`bbox=${box.join(',')}&bbox-crs=${enc(URI.epsg27700)}`);
      within(found, expected, `bbox ${box.join(',')}`);
      // filter-crs: the same box as a CQL2 BBOX and as a POLYGON of its corners, in text and JSON.
      assert.deepEqual(await ids(`filter=${enc(`S_INTERSECTS(geometry, BBOX(${box.join(', ')}))`)}&filter-crs=${enc(URI.epsg27700)}`), found);
      const ring = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
      const json = JSON.stringify({ op: 's_intersects', args: [{ property: 'geometry' }, { type: 'Polygon', coordinates: [ring] }] });
      within(await ids(`filter=${enc(json)}&filter-lang=cql2-json&filter-crs=${enc(URI.epsg27700)}`), expected, 'POLYGON');
    });
  }

  test('bbox-crs EPSG:27700, a box 500 km wide whose north edge cuts through the Edinburgh footprints: its edges are followed, not cut short', async () => {
    const edinburgh = FEATURES.filter((f) => {
      const [lon, lat] = positionsOf(f.geometry as unknown as Geometry)[0]!;
      return lon > -3.3 && lon < -3.0 && lat > 55.8 && lat < 56.1;
    });
    const northings = (await cs2cs(URI.epsg27700, edinburgh.map((f) => positionsOf(f.geometry as unknown as Geometry)[0]!))).map(([, y]) => y).sort((a, b) => a - b);
    const north = Math.round(northings[Math.floor(northings.length / 2)]!) + 0.5;
    const box = [100000, 600000, 600000, north] as const;
    // The edge is a curve in longitude and latitude (7 km from its chord at the middle): a region followed within 1 m.
    const expected = await meetingInPlane(URI.epsg27700, (g) => boxPolygon(box[0] - g * 100, box[1] - g * 100, box[2] + g * 100, box[3] + g * 100));
    const found = await ids(`bbox=${box.join(',')}&bbox-crs=${enc(URI.epsg27700)}`);
    within(found, expected, 'the 500 km box');
    const ids500 = edinburgh.map((f) => f.id);
    assert.ok(ids500.some((id) => found.includes(id)) && ids500.some((id) => !found.includes(id)), 'the edge splits the Edinburgh footprints');
  });

  test('bbox-crs EPSG:3857: the footprints that meet that box in the Mercator plane', async () => {
    const box = [-7800, 6713400, -7000, 6714400] as const;
    const expected = await meetingInPlane(URI.epsg3857, (g) => boxPolygon(box[0] - g, box[1] - g, box[2] + g, box[3] + g));
    within(await ids(`bbox=${box.join(',')}&bbox-crs=${enc(URI.epsg3857)}`), expected, '3857 box');
  });

  test('bbox-crs and filter-crs EPSG:4326: latitude first, the same items as the CRS84 box and point', async () => {
    const [w, s, e, n] = [-0.072, 51.515, -0.066, 51.519];
    const crs84 = await ids(`bbox=${[w, s, e, n].join(',')}`);
    assert.ok(crs84.length > 0 && crs84.length < FEATURES.length);
    assert.deepEqual(await ids(`bbox=${[s, w, n, e].join(',')}&bbox-crs=${enc(URI.epsg4326)}`), crs84);
    const [lon, lat] = positionsOf(FEATURES[3]!.geometry as unknown as Geometry)[0]!;
    const point = await ids(`filter=${enc(`S_INTERSECTS(geometry, POINT(${lat} ${lon}))`)}&filter-crs=${enc(URI.epsg4326)}`);
    assert.deepEqual(point, await ids(`filter=${enc(`S_INTERSECTS(geometry, POINT(${lon} ${lat}))`)}`));
    assert.ok(point.includes(FEATURES[3]!.id));
  });

  test('filter-crs EPSG:27700: a POINT of the grid finds the footprint it lies in (cs2cs gave the point)', async () => {
    const feature = FEATURES.find((f) => f.id > 200)!;
    const g = feature.geometry as unknown as Geometry;
    const ring = g.coordinates[0]![0]!;
    // The middle of the outer ring's first diagonal, well inside a convex footprint's area or on its edge.
    const [px, py] = (await cs2cs(URI.epsg27700, [[(ring[0]![0]! + ring[2]![0]!) / 2, (ring[0]![1]! + ring[2]![1]!) / 2]]))[0]!;
    const found = await ids(`filter=${enc(`S_INTERSECTS(geometry, POINT(${px} ${py}))`)}&filter-crs=${enc(URI.epsg27700)}`);
    assert.ok(found.includes(feature.id), `${feature.id} in ${found.join(', ')}`);
  });
});

describe('crs: headers, documents and refusals', () => {
  const answerKinds = (crs: string | null) => {
    const q = (path: string, f?: string) => {
      const query = [crs === null ? null : `crs=${enc(crs)}`, f === undefined ? null : `f=${f}`].filter((p) => p !== null).join('&');
      return query === '' ? path : `${path}?${query}`;
    };
    const item = `${ITEMS}/${FEATURES[0]!.id}`;
    return [q(ITEMS), q(ITEMS, 'json'), q(ITEMS, 'html'), q(item), q(item, 'html'), q(ITEMS, 'geojson'), q(ITEMS, 'csv'), q(ITEMS, 'fgb'), q(ITEMS, 'gpkg')];
  };

  for (const crs of [null, URI.crs84, URI.epsg4326, URI.epsg3857, URI.epsg27700]) {
    test(`Content-Crs on every answer with coordinates: ${crs ?? 'no crs (CRS84)'}`, async () => {
      for (const target of answerKinds(crs)) {
        const answer = await t.request(target);
        assert.equal(answer.status, 200, `${target}: ${answer.status === 200 ? '' : answer.text.slice(0, 300)}`);
        assert.equal(answer.headers['content-crs'], `<${crs ?? URI.crs84}>`, target);
        // Again, from the answer cache (or a 304): the same header.
        const again = await t.request(target, answer.headers.etag === undefined ? {} : { headers: { 'if-none-match': String(answer.headers.etag) } });
        assert.equal(again.headers['content-crs'], `<${crs ?? URI.crs84}>`, `${target} again (${again.status})`);
      }
    });
  }

  test('the page for people draws the same footprints whatever the crs (its small map is drawn from longitude and latitude)', async () => {
    const drawn = async (query: string) => {
      const answer = await t.request(`${ITEMS}?f=html&limit=50${query}`);
      assert.equal(answer.status, 200);
      return [...answer.text.matchAll(/<path[^>]* d="([^"]*)"/g)].map((m) => m[1]);
    };
    const plain = await drawn('');
    assert.ok(plain.length > 10);
    for (const crs of [URI.epsg4326, URI.epsg3857, URI.epsg27700]) assert.deepEqual(await drawn(`&crs=${enc(crs)}`), plain, crs);
  });

  test('no Content-Crs where there are no coordinates, nor on a refusal, nor on /api/v1/', async () => {
    for (const target of ['/ogc/collections', '/ogc/collections/features', '/ogc/conformance', '/ogc/collections/features/queryables', `${ITEMS}?crs=nope`, '/api/v1/features/']) {
      const answer = await t.request(target);
      assert.equal(answer.headers['content-crs'], undefined, target);
    }
  });

  test('/req/crs/crs-action: a CRS not offered is a 400 naming the parameter, the value and every offered CRS', async () => {
    const offered = [URI.crs84, URI.epsg4326, URI.epsg3857, URI.epsg27700];
    for (const name of ['crs', 'bbox-crs', 'filter-crs']) {
      for (const value of ['http://www.opengis.net/def/crs/EPSG/0/32630', 'EPSG:27700']) {
        const query = name === 'bbox-crs' ? `bbox=1,2,3,4&${name}=${enc(value)}` : `${name}=${enc(value)}`;
        const answer = await t.request(`${ITEMS}?${query}`);
        assert.equal(answer.status, 400, `${name}=${value}`);
        const { description } = answer.json();
        assert.ok(description.includes(`"${name}"`) && description.includes(JSON.stringify(value)), description);
        for (const uri of offered) assert.ok(description.includes(uri), `${description} lists ${uri}`);
      }
    }
    assert.equal((await t.request(`${ITEMS}/${FEATURES[0]!.id}?crs=${enc('http://www.opengis.net/def/crs/EPSG/0/2157')}`)).status, 400);
  });

  test('boxes and filter positions outside the CRS or the wrong way round are 400s', async () => {
    const bng = enc(URI.epsg27700);
    for (const query of [
      `bbox=534000,182000,533000,181000&bbox-crs=${bng}`, // min after max
      `bbox=9000000,0,9100000,100&bbox-crs=${bng}`, // far outside the grid
      `bbox=51.5,-0.1,51.6,-0.2&bbox-crs=${enc(URI.epsg4326)}`, // east before west
      `bbox=120,-0.1,121,-0.05&bbox-crs=${enc(URI.epsg4326)}`, // longitude first: 120 is no latitude
      `bbox=0,0,1,30000000&bbox-crs=${enc(URI.epsg3857)}`,
    ]) {
      const answer = await t.request(`${ITEMS}?${query}`);
      assert.equal(answer.status, 400, query);
      assert.match(answer.json().description, /"bbox"/, query);
    }
    const far = await t.request(`${ITEMS}?filter=${enc('S_INTERSECTS(geometry, POINT(9000000 10))')}&filter-crs=${bng}`);
    assert.equal(far.status, 400);
    assert.match(far.json().description, /27700/);
    const latFirst = await t.request(`${ITEMS}?filter=${enc('S_INTERSECTS(geometry, POINT(100 51))')}&filter-crs=${enc(URI.epsg4326)}`);
    assert.equal(latFirst.status, 400, 'latitude 100');
  });

  test('the collections list the offered CRSs and storageCrs; the conformance class; the API definition declares the parameters', async () => {
    const offered = [URI.crs84, URI.epsg4326, URI.epsg3857, URI.epsg27700];
    for (const c of (await t.request('/ogc/collections')).json().collections) {
      assert.deepEqual([c.crs, c.storageCrs], [offered, URI.crs84], c.id);
    }
    assert.deepEqual((await t.request('/ogc/collections/images')).json().crs, offered);
    assert.ok((await t.request('/ogc/conformance')).json().conformsTo.includes('http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs'));
    const api = (await t.request('/ogc/api')).json();
    const resolve = (p: { $ref?: string }) => (p.$ref === undefined ? p : api.components.parameters[p.$ref.split('/').at(-1)!]);
    const items = api.paths['/collections/features/items'].get.parameters.map(resolve);
    for (const name of ['crs', 'bbox-crs', 'filter-crs']) {
      assert.deepEqual(items.find((p: { name: string }) => p.name === name)?.schema.enum, offered, name);
    }
    const item = api.paths['/collections/features/items/{featureId}'].get.parameters.map(resolve);
    assert.deepEqual(item.find((p: { name: string }) => p.name === 'crs')?.schema.enum, offered);
    for (const path of ['/collections/features/items', '/collections/features/items/{featureId}']) {
      assert.ok(api.paths[path].get.responses[200].headers['Content-Crs'], `${path}: Content-Crs declared`);
    }
    const refusal = api.paths['/collections/features/items'].get.responses[400].content['application/json'].examples.crsNotOffered.value;
    assert.match(refusal.description, /"crs".*EPSG:27700/);
  });
});

describe('crs: the files GDAL reads', { skip: gdalSkipReason() ?? noProj }, () => {
  const dir = temporaryDir();

  async function saved(query: string, name: string): Promise<string> {
    const answer = await t.request(`${ITEMS}?${query}`);
    assert.equal(answer.status, 200, answer.text.slice(0, 200));
    const file = path.join(dir, name);
    fs.writeFileSync(file, answer.bytes);
    return file;
  }

  /** ogrinfo's features: id → positions of its MULTIPOLYGON. */
  function ogrPositions(output: string): Map<number, XY[]> {
    const out = new Map<number, XY[]>();
    for (const block of output.split(/\nOGRFeature\(/).slice(1)) {
      const fid = Number(/^[^)]*\):(\d+)/.exec(block)![1]);
      const wkt = /MULTIPOLYGON \((.*)\)/.exec(block)![1]!;
      out.set(fid, [...wkt.matchAll(/(-?[\d.]+) (-?[\d.]+)/g)].map((m): XY => [Number(m[1]), Number(m[2])]));
    }
    return out;
  }

  for (const format of ['gpkg', 'fgb'] as const) {
    test(`f=${format}&crs=EPSG:27700: ogrinfo reports EPSG:27700 and every position matches cs2cs within 1 mm`, async () => {
      const file = await saved(`f=${format}&crs=${enc(URI.epsg27700)}&properties=id`, `bng.${format}`);
      const summary = await gdal('ogrinfo', ['-so', file, 'features']);
      assert.match(summary, /PROJCRS\["OSGB36 \/ British National Grid"/);
      assert.match(summary, /ID\["EPSG",27700\]\]\s*$/m);
      const all = ogrPositions(await gdal('ogrinfo', ['-q', file, 'features']));
      assert.equal(all.size, FEATURES.length);
      const served: XY[] = [];
      const crs84: XY[] = [];
      for (const f of FEATURES) {
        const fid = format === 'gpkg' ? f.id : FEATURES.indexOf(f);
        served.push(...all.get(fid)!);
        crs84.push(...positionsOf(f.geometry as unknown as Geometry));
      }
      await assertLikeProj(URI.epsg27700, served, crs84, `GDAL's ${format}`);
    });
  }

  test('f=gpkg&crs=EPSG:3857 is EPSG:3857 to GDAL; f=gpkg alone (the kept file) stays EPSG:4326', async () => {
    assert.match(await gdal('ogrinfo', ['-so', await saved(`f=gpkg&crs=${enc(URI.epsg3857)}`, 'merc.gpkg'), 'features']), /ID\["EPSG",3857\]\]\s*$/m);
    assert.match(await gdal('ogrinfo', ['-so', await saved('f=gpkg', 'kept.gpkg'), 'features']), /ID\["EPSG",4326\]\]\s*$/m);
    const latFirst = await gdal('ogrinfo', ['-q', await saved(`f=gpkg&crs=${enc(URI.epsg4326)}&properties=id`, 'lat.gpkg'), 'features']);
    // A GeoPackage holds x east whatever the CRS's axis order: the stored positions.
    const first = FEATURES[0]!;
    const stored = positionsOf(first.geometry as unknown as Geometry);
    // ogrinfo prints 15 significant digits.
    ogrPositions(latFirst).get(first.id)!.forEach(([x, y], i) => assert.ok(Math.abs(x - stored[i]![0]) < 1e-12 && Math.abs(y - stored[i]![1]) < 1e-12, `${i}`));
  });
});

describe('Content-Crs on a socket, where repeats come from the fast path', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  test('each cached answer is replayed with its own Content-Crs, the CRSs interleaved', async () => {
    const targets = [null, URI.epsg27700, URI.epsg4326, URI.epsg3857].map((crs) => [crs ?? URI.crs84, crs === null ? `${ITEMS}?limit=3` : `${ITEMS}?limit=3&crs=${enc(crs)}`] as const);
    for (let round = 0; round < 3; round++) {
      for (const [crs, target] of targets) {
        const answer = await server.request(target);
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['content-crs'], `<${crs}>`, `${target}, round ${round}`);
      }
    }
  });
});
