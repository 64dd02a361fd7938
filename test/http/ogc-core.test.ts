// OGC API – Features Part 1, classes Core and GeoJSON: the abstract tests of
// core/standard/abstract_tests (tag 1.0.1) as requests on the app, each named after the
// requirement it checks. Expected answers come from the catalogue's records (test/support/ogc.ts)
// and an exact polygon intersection written for the tests (test/support/ogc-geometry.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boxPolygon, footprintMeets } from '../support/ogc-geometry.js';
import { allIds, COLLECTIONS, enc, idsWhere, itemsPage, linkOf, linkPath, ogc400, OGC_FEATURE_COUNT, ogcJson, useOgcSuite, walkNext, type Collection } from '../support/ogc.js';

const GEOJSON = 'application/geo+json';
const JSON_TYPE = 'application/json';

const { t, catalogue, expected } = useOgcSuite();

type Link = { href: string; rel: string; type: string };

/** Every link of a body has href, rel and type (/req/core/fc-rel-type, f-links B, fc-md-links B). */
function assertLinksTyped(links: Link[], where: string): void {
  assert.ok(Array.isArray(links) && links.length > 0, `${where}: links`);
  for (const l of links) {
    assert.equal(typeof l.href, 'string', `${where}: href`);
    assert.ok(typeof l.rel === 'string' && l.rel !== '', `${where}: rel of ${l.href}`);
    assert.ok(typeof l.type === 'string' && l.type !== '', `${where}: type of ${l.rel} ${l.href}`);
  }
}

const ids = (c: Collection) => expected[c].map((i) => i.id);

describe('OGC Part 1 core: landing page, conformance, API definition', () => {
  test('/req/core/root-op, /req/core/root-success: the landing page links the API definition, conformance and data', async () => {
    const answer = await t.request('/ogc/');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], JSON_TYPE);
    const body = answer.json();
    assertLinksTyped(body.links, '/ogc/');
    const rel = (r: string) => body.links.filter((l: Link) => l.rel === r);
    assert.deepEqual(rel('service-desc').map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/api`, 'application/vnd.oai.openapi+json;version=3.0']]);
    assert.deepEqual(rel('service-doc').map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/docs/`, 'text/html']]);
    assert.deepEqual(rel('conformance').map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/conformance`, JSON_TYPE]]);
    assert.deepEqual(rel('data').map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/collections`, JSON_TYPE]]);
    assert.deepEqual(rel('self').map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/`, JSON_TYPE]]);
    assert.deepEqual(rel('http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes').map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/tileMatrixSets`, JSON_TYPE]]);
    // Alternate links only where another encoding exists; each would have to answer.
    for (const l of rel('alternate')) assert.equal((await t.request(linkPath(t, l.href))).status, 200);
    assert.equal(typeof body.title, 'string');
  });

  test('/req/core/root-op: /ogc (as GIS users type the root) answers the landing page too', async () => {
    const [bare, slashed] = [await t.request('/ogc'), await t.request('/ogc/')];
    assert.equal(bare.status, 200);
    assert.equal(bare.headers['content-type'], JSON_TYPE);
    assert.equal(bare.text, slashed.text);
  });

  test('/req/core/conformance-op, /req/core/conformance-success: conformsTo lists the declared classes', async () => {
    const answer = await t.request('/ogc/conformance');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], JSON_TYPE);
    const spec = (s: string) => `http://www.opengis.net/spec/${s}`;
    assert.deepEqual([...answer.json().conformsTo].sort(), [
      spec('cql2/1.0/conf/advanced-comparison-operators'), spec('cql2/1.0/conf/basic-cql2'), spec('cql2/1.0/conf/basic-spatial-functions'),
      spec('cql2/1.0/conf/case-insensitive-comparison'), spec('cql2/1.0/conf/cql2-json'), spec('cql2/1.0/conf/cql2-text'),
      spec('ogcapi-features-1/1.0/conf/core'), spec('ogcapi-features-1/1.0/conf/geojson'), spec('ogcapi-features-1/1.0/conf/html'), spec('ogcapi-features-1/1.0/conf/oas30'),
      spec('ogcapi-features-2/1.0/conf/crs'),
      spec('ogcapi-features-3/1.0/conf/features-filter'), spec('ogcapi-features-3/1.0/conf/filter'), spec('ogcapi-features-3/1.0/conf/queryables'),
      spec('ogcapi-features-3/1.0/conf/queryables-query-parameters'), spec('ogcapi-features-6/1.0/conf/property-selection'),
      spec('ogcapi-records-1/1.0/conf/sorting'),
      spec('ogcapi-tiles-1/1.0/conf/core'), spec('ogcapi-tiles-1/1.0/conf/geodata-tilesets'), spec('ogcapi-tiles-1/1.0/conf/mvt'),
      spec('ogcapi-tiles-1/1.0/conf/tileset'), spec('ogcapi-tiles-1/1.0/conf/tilesets-list'),
    ]);
  });

  test('/req/core/api-definition-op, /req/core/api-definition-success: the service-desc and service-doc links answer GET in their type',
    async () => {
      const body = await ogcJson(t, '/ogc/');
      for (const rel of ['service-desc', 'service-doc']) {
        const l = linkOf(body, rel)!;
        const answer = await t.request(linkPath(t, l.href), { headers: { accept: l.type } });
        assert.equal(answer.status, 200, rel);
        assert.equal(String(answer.headers['content-type']).split(';')[0], l.type.split(';')[0], rel);
      }
    });
});

describe('OGC Part 1 core: collections', () => {
  test('/req/core/fc-md-op, /req/core/fc-md-success, /req/core/fc-md-items: one entry per collection', async () => {
    const answer = await t.request('/ogc/collections');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], JSON_TYPE);
    const body = answer.json();
    assert.deepEqual(body.collections.map((c: { id: string }) => c.id), ['features', 'images', 'documents', 'media']);
    for (const c of body.collections) {
      assert.equal(typeof c.title, 'string');
      assert.equal(c.itemType, 'feature');
    }
  });

  test('/req/core/fc-md-links: self link typed; every link of the document and its collections has rel and type', async () => {
    const body = await ogcJson(t, '/ogc/collections');
    assertLinksTyped(body.links, '/ogc/collections');
    assert.deepEqual(body.links.filter((l: Link) => l.rel === 'self').map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/collections`, JSON_TYPE]]);
    for (const c of body.collections) assertLinksTyped(c.links, c.id);
  });

  test('/req/core/fc-md-items-links: each collection links its items as GeoJSON, and the link answers', async () => {
    const body = await ogcJson(t, '/ogc/collections');
    for (const c of body.collections) {
      const items = c.links.filter((l: Link) => l.rel === 'items');
      assert.deepEqual(items.map((l: Link) => [l.href, l.type]), [[`${t.origin}/ogc/collections/${c.id}/items`, GEOJSON]], c.id);
      const answer = await t.request(linkPath(t, items[0].href));
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], GEOJSON);
    }
  });

  test('/req/core/fc-md-extent: the first bbox covers every footprint of the collection, the interval every date', async () => {
    const body = await ogcJson(t, '/ogc/collections');
    for (const c of body.collections as { id: Collection; extent: any }[]) {
      const [west, south, east, north] = c.extent.spatial.bbox[0];
      assert.equal(c.extent.spatial.crs, 'http://www.opengis.net/def/crs/OGC/1.3/CRS84');
      const points = expected[c.id].flatMap((i) => i.geometry.coordinates.flat(2));
      for (const [x, y] of points) assert.ok(west <= x! && x! <= east && south <= y! && y! <= north, `${c.id}: (${x}, ${y}) outside ${c.extent.spatial.bbox[0]}`);
      // Not much larger than the data (the stores may round outwards).
      const xs = points.map((p) => p[0]!);
      const ys = points.map((p) => p[1]!);
      assert.ok(Math.min(...xs) - west < 1e-4 && east - Math.max(...xs) < 1e-4 && Math.min(...ys) - south < 1e-4 && north - Math.max(...ys) < 1e-4, `${c.id}: bbox close to the data`);
    }
    const interval = (id: Collection) => body.collections.find((c: { id: string }) => c.id === id).extent.temporal?.interval;
    const years = expected.features.map((i) => i.properties.current).filter((y): y is number => typeof y === 'number');
    assert.deepEqual(interval('features'), [[`${Math.min(...years)}-01-01T00:00:00Z`, `${Math.max(...years)}-12-31T23:59:59Z`]]);
    for (const id of ['images', 'documents'] as const) {
      const dates = expected[id].map((i) => i.properties.created).filter((d): d is string => typeof d === 'string').sort();
      assert.deepEqual(interval(id), [[`${dates[0]}T00:00:00Z`, `${dates[dates.length - 1]}T23:59:59Z`]], id);
    }
    assert.equal(interval('media'), undefined, 'media have no dates');
  });

  test('/req/core/sfc-md-op, /req/core/sfc-md-success: each collection alone equals its entry in /collections', async () => {
    const all = await ogcJson(t, '/ogc/collections');
    for (const entry of all.collections) {
      const answer = await t.request(`/ogc/collections/${entry.id}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], JSON_TYPE);
      const one = answer.json();
      for (const key of ['id', 'title', 'description', 'extent', 'itemType']) assert.deepEqual(one[key], entry[key], `${entry.id}.${key}`);
      for (const l of entry.links) assert.ok(one.links.some((m: Link) => m.href === l.href && m.rel === l.rel), `${entry.id}: ${l.rel}`);
    }
  });

  test('/req/core/sfc-md-op: an unknown collection is a 404 with an OGC exception', async () => {
    for (const path of ['/ogc/collections/buildings', '/ogc/collections/buildings/items', '/ogc/collections/buildings/items/1', '/ogc/collections/Features/items']) {
      const answer = await t.request(path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.json().code, 'NotFound');
    }
  });
});

describe('OGC Part 1 core: items, limit', () => {
  test('/req/core/fc-op, /req/core/fc-response: every collection answers with its published items only', async () => {
    for (const c of COLLECTIONS) assert.deepEqual(await allIds(t, `/ogc/collections/${c}/items`), ids(c), c);
  });

  test('/req/core/fc-limit-definition: without limit, a page holds 100 items', async () => {
    assert.ok(OGC_FEATURE_COUNT > 100);
    const body = await itemsPage(t, '/ogc/collections/features/items');
    assert.equal(body.numberReturned, 100);
    assert.equal(body.numberMatched, OGC_FEATURE_COUNT);
    assert.deepEqual(body.features.map((f: { id: number }) => f.id), ids('features').slice(0, 100));
    const next = await itemsPage(t, linkPath(t, linkOf(body, 'next')!.href));
    assert.deepEqual(next.features.map((f: { id: number }) => f.id), ids('features').slice(100));
  });

  test('/req/core/fc-limit-response-1: never more items than the limit', async () => {
    for (const limit of [1, 2, 7, 100, 119, 120, 121]) {
      const body = await itemsPage(t, `/ogc/collections/features/items?limit=${limit}`);
      assert.equal(body.numberReturned, Math.min(limit, OGC_FEATURE_COUNT), `limit=${limit}`);
      assert.deepEqual(body.features.map((f: { id: number }) => f.id), ids('features').slice(0, limit));
      assert.equal(linkOf(body, 'next') !== undefined, limit < OGC_FEATURE_COUNT, `limit=${limit}: next link`);
    }
  });

  test('/req/core/fc-limit-response-1 C: a limit above the maximum (10000) is the maximum, never an error', async () => {
    for (const limit of ['10000', '10001', '20000', '999999999999999', '0010']) {
      const body = await itemsPage(t, `/ogc/collections/features/items?limit=${limit}`);
      assert.equal(body.numberReturned, Math.min(Number(limit), OGC_FEATURE_COUNT), `limit=${limit}`);
    }
  });

  test('/req/core/query-param-invalid: limit 0, negative, not a whole number → 400 naming limit', async () => {
    for (const limit of ['0', '-1', 'x', '1.5', '', '1e3', ' 5', '+5', '0x10']) {
      assert.match(await ogc400(t, `/ogc/collections/features/items?limit=${enc(limit)}`), /"limit"/, `limit=${JSON.stringify(limit)}`);
    }
  });
});

describe('OGC Part 1 core: bbox', () => {
  const query = (c: Collection, box: readonly number[]) => `/ogc/collections/${c}/items?bbox=${box.join(',')}`;
  const meets = (c: Collection, [w, s, e, n]: readonly number[]) => idsWhere(expected[c], (_p, item) => footprintMeets(item.geometry, boxPolygon(w!, s!, e!, n!)));

  /** Boxes over the catalogue's row of squares, from a fixed sequence: small, large, thin. */
  function boxes(): number[][] {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const list: number[][] = [];
    const corners = expected.features.flatMap((i) => i.geometry.coordinates.flat(2));
    for (let i = 0; i < 30; i++) {
      // Around a footprint's corner, so most boxes meet a few footprints.
      const [x, y] = corners[Math.floor(random() * corners.length)]!;
      const w = x! - random() * 0.0004;
      const s = y! - random() * 0.0003;
      const width = [0.00003, 0.0003, 0.003][i % 3]! * (0.5 + random());
      const height = [0.00002, 0.0002, 0.002][(i >> 1) % 3]! * (0.5 + random());
      list.push([w, s, w + width, s + height]);
    }
    return list;
  }

  test('/req/core/fc-bbox-response: items whose footprint truly meets the box, for boxes over the data', async () => {
    let partial = 0;
    for (const box of boxes()) {
      const want = meets('features', box);
      if (want.length > 0 && want.length < OGC_FEATURE_COUNT) partial++;
      assert.deepEqual(await allIds(t, query('features', box)), want, `bbox=${box}`);
    }
    assert.ok(partial >= 10, `only ${partial} boxes meet some but not all footprints`);
  });

  test('/req/core/fc-bbox-response: inside a footprint\'s bounding box but off its parts (a courtyard, the gap between two parts) → not found', async () => {
    const one = expected.features.find((i) => i.id === 1)!;
    const all = one.geometry.coordinates.flat(2);
    const [minX, maxX] = [Math.min(...all.map((p) => p[0]!)), Math.max(...all.map((p) => p[0]!))];
    const [minY, maxY] = [Math.min(...all.map((p) => p[1]!)), Math.max(...all.map((p) => p[1]!))];
    const courtyard = [-0.070395 - 1e-6, 51.516858 - 1e-6, -0.070395 + 1e-6, 51.516858 + 1e-6];
    const gap = [-0.0697, 51.5158, -0.0696, 51.5159];
    for (const box of [courtyard, gap]) {
      assert.ok(minX <= box[0]! && box[2]! <= maxX && minY <= box[1]! && box[3]! <= maxY, `${box} inside feature 1's bounding box`);
      assert.deepEqual(meets('features', box), [], `${box}: no footprint (computed)`);
      assert.deepEqual(await allIds(t, query('features', box)), [], `bbox=${box}`);
    }
    // The box around the courtyard's edge meets the building.
    assert.deepEqual(await allIds(t, query('features', [-0.07040, 51.51685, -0.07039, 51.51686])), meets('features', [-0.07040, 51.51685, -0.07039, 51.51686]));
    assert.ok(meets('features', [-0.07040, 51.51685, -0.07039, 51.51686]).includes(1));
  });

  test('/req/core/fc-bbox-definition: six numbers (with heights) select as the four do', async () => {
    for (const [w, s, e, n] of boxes().slice(0, 8)) {
      assert.deepEqual(await allIds(t, query('features', [w!, s!, -10, e!, n!, 100])), meets('features', [w!, s!, e!, n!]));
    }
  });

  test('/req/core/fc-bbox-response: images, documents and media are found by their building\'s footprint', async () => {
    const box = [-0.0704, 51.5168, -0.0698, 51.5172];
    for (const c of ['images', 'documents', 'media'] as const) {
      const want = meets(c, box);
      assert.ok(want.length > 0 && want.length < expected[c].length, `${c}: a box that meets some`);
      assert.deepEqual(await allIds(t, query(c, box)), want, c);
    }
  });

  test('/req/core/query-param-invalid: a bbox of the wrong length, not numbers, or upside down → 400 naming bbox', async () => {
    for (const bbox of ['1,2,3', '1,2,3,4,5', '1,2,3,4,5,6,7', 'a,b,c,d', '0,0,1,x', '', '1,2,,4', '10,0,0,1', '0,10,1,0', '0,0,200,1', '0,-91,1,0', '0,0,5,1,1,1', '1;2;3;4', 'NaN,0,1,1', 'Infinity,0,1,1']) {
      assert.match(await ogc400(t, `/ogc/collections/features/items?bbox=${enc(bbox)}`), /"bbox"/, `bbox=${bbox}`);
    }
  });
});

describe('OGC Part 1 core: datetime', () => {
  /** An RFC 3339 instant's calendar date in UTC. */
  const utcDate = (text: string) => (text.length === 10 ? text : new Date(text).toISOString().slice(0, 10));
  /** The features or records a datetime selects: an undated item matches any value (fc-time-response C). */
  function selected(c: Collection, value: string): number[] {
    const ends = value.split('/');
    const [start, end] = ends.length === 1 ? [ends[0]!, ends[0]!] : ends.map((e) => (e === '..' || e === '' ? null : e));
    if (c === 'media') return ids(c);
    if (c === 'features') {
      const year = (text: string) => Number(utcDate(text).slice(0, 4));
      return idsWhere(expected.features, (p) => p.current === null || ((start == null || (p.current as number) >= year(start)) && (end == null || (p.current as number) <= year(end))));
    }
    return idsWhere(expected[c], (p) => p.created === null || ((start == null || (p.created as string) >= utcDate(start)) && (end == null || (p.created as string) <= utcDate(end))));
  }

  const cases: [Collection, string][] = [
    ['features', '1885-06-01'], ['features', '1885-06-01T12:00:00Z'], ['features', '1885-12-31T23:30:00-02:00'], ['features', '1885-01-01t00:00:00.5z'],
    ['features', '1883-01-01/1887-12-31'], ['features', '1883-03-01T00:00:00Z/1887-02-01T10:00:00+01:00'],
    ['features', '../1882-01-01'], ['features', '/1882-01-01'], ['features', '1895-01-01/..'], ['features', '1895-01-01/'], ['features', '2000-01-01'],
    ['images', '2016-06-01'], ['images', '2016-06-01T23:00:00-03:00'], ['images', '2016-01-01/2017-01-01'], ['images', '../2000-01-01'], ['images', '2016-06-02/..'],
    ['documents', '2016-06-22'], ['documents', '2016-06-01/2016-12-31'], ['documents', '2019-01-01/'],
    ['media', '2016-06-01'], ['media', '../2016-06-01T10:00:00Z'],
  ];

  test('/req/core/fc-time-response: instants and intervals, open at either end, on `current` (features) and `created` (images, documents)', async () => {
    let narrowed = 0;
    for (const [c, value] of cases) {
      const want = selected(c, value);
      if (want.length < expected[c].length) narrowed++;
      assert.deepEqual(await allIds(t, `/ogc/collections/${c}/items?datetime=${enc(value)}`), want, `${c} datetime=${value}`);
    }
    assert.ok(narrowed >= 15, `only ${narrowed} cases select fewer than all`);
  });

  test('/req/core/fc-time-response C: items without a date (current or created null, every media item) match any datetime', async () => {
    const undated = idsWhere(expected.features, (p) => p.current === null);
    assert.ok(undated.length > 0);
    const found = await allIds(t, '/ogc/collections/features/items?datetime=1700-01-01');
    assert.deepEqual(found, undated);
    assert.deepEqual(await allIds(t, '/ogc/collections/media/items?datetime=1700-01-01'), ids('media'));
  });

  test('/req/core/query-param-invalid: a datetime that is not RFC 3339 or an interval → 400 naming datetime, on every collection', async () => {
    const bad = ['2016-13-01', '2016-02-30', '2015-02-29', 'yesterday', '2016', '2016-06', '2016-06-01T25:00:00Z', '2016-06-01T12:00:00', '2016-06-01 12:00:00Z',
      '2016-06-02/2016-06-01', '../..', '/', '..', '2016-06-01/2016-06-02/2016-06-03', '2016-06-01/x', ''];
    for (const c of COLLECTIONS) {
      for (const value of bad) assert.match(await ogc400(t, `/ogc/collections/${c}/items?datetime=${enc(value)}`), /"datetime"/, `${c} datetime=${JSON.stringify(value)}`);
    }
  });
});

describe('OGC Part 1 core: parameters, counts, links, paging', () => {
  test('/req/core/query-param-unknown: a parameter the path does not take → 400 naming it, on every path', async () => {
    for (const path of ['/ogc/', '/ogc/conformance', '/ogc/collections', '/ogc/collections/features', '/ogc/collections/images/queryables',
      '/ogc/collections/features/items', '/ogc/collections/documents/items', '/ogc/collections/features/items/1']) {
      const description = await ogc400(t, `${path}?limt=5`);
      assert.match(description, /"limt"/, path);
    }
    // A queryable of another collection is unknown here; parameter names are case-sensitive.
    await ogc400(t, '/ogc/collections/media/items?current=1885');
    await ogc400(t, '/ogc/collections/media?current=1885');
    await ogc400(t, '/ogc/collections/media/items/1?current=1885');
    await ogc400(t, '/ogc/collections/features/items?LIMIT=5');
    await ogc400(t, '/ogc/collections/features/items?page=2');
  });

  test('the paths GDAL reads besides the items take the items\' parameters (its dataset URL\'s query, appended to every request) and ignore them', async () => {
    const query = '?datetime=1890-01-01/1899-12-31&current=1891&filter=id%3D1&limit=5';
    for (const path of ['/ogc', '/ogc/', '/ogc/conformance', '/ogc/api', '/ogc/collections', '/ogc/collections/features', '/ogc/collections/features/queryables',
      '/ogc/collections/features/schema', '/ogc/collections/features/feature-schema', '/ogc/collections/features/items/1']) {
      const plain = await t.request(`${path}?f=json`);
      const appended = await t.request(`${path}${query}&f=json`);
      assert.equal(appended.status, 200, `${path}: ${appended.text}`);
      assert.equal(appended.text, plain.text, path);
    }
  });

  test('/req/core/query-param-invalid: a parameter given twice with different values → 400 naming it; the same value again is taken', async () => {
    for (const query of ['limit=2&limit=3', 'bbox=0,0,1,1&bbox=0,0,1,2', 'f=json&f=html', 'id=1&id=3', 'datetime=1890-01-01/1899-12-31&datetime=1890-01-01/1899-12-30']) {
      assert.match(await ogc400(t, `/ogc/collections/features/items?${query}`), /"(limit|bbox|f|id|datetime)" is given more than once, with different values/, query);
    }
    await ogc400(t, '/ogc/collections/features/items/1?f=json&f=html');
    // GDAL re-appends its dataset URL's query to next links that spell it otherwise (%2F for /).
    const once = await itemsPage(t, '/ogc/collections/features/items?limit=3&datetime=1885-01-01/1890-12-31');
    const twice = await itemsPage(t, '/ogc/collections/features/items?limit=3&datetime=1885-01-01%2F1890-12-31&datetime=1885-01-01/1890-12-31&limit=3');
    assert.deepEqual(twice.features, once.features);
    assert.equal(twice.numberMatched, once.numberMatched);
  });

  test('/req/core/query-param-invalid: f other than json → 400', async () => {
    for (const path of ['/ogc/', '/ogc/collections', '/ogc/collections/features/items', '/ogc/collections/features/items/1']) {
      assert.match(await ogc400(t, `${path}?f=xml`), /"f"/, path);
    }
  });

  test('/req/core/fc-numberMatched, /req/core/fc-numberReturned: exact, whatever selects and however small the page', async () => {
    const box = [-0.0712, 51.5148, -0.065, 51.5185];
    const inBox = idsWhere(expected.features, (_p, i) => footprintMeets(i.geometry, boxPolygon(box[0]!, box[1]!, box[2]!, box[3]!)));
    const cases: [string, number][] = [
      ['/ogc/collections/features/items?limit=3', OGC_FEATURE_COUNT],
      [`/ogc/collections/features/items?limit=3&bbox=${box.join(',')}`, inBox.length],
      ['/ogc/collections/features/items?limit=3&datetime=1885-01-01', idsWhere(expected.features, (p) => p.current === null || p.current === 1885).length],
      ['/ogc/collections/images/items?limit=1', expected.images.length],
      ['/ogc/collections/documents/items?limit=1&author=surveyoflondon', idsWhere(expected.documents, (p) => p.author === 'surveyoflondon').length],
      ['/ogc/collections/features/items?bbox=10,10,11,11', 0],
    ];
    for (const [path, matched] of cases) {
      const body = await itemsPage(t, path);
      assert.equal(body.numberMatched, matched, path);
      assert.equal(body.numberReturned, Math.min(matched, path.includes('limit=1') ? 1 : 3), path);
    }
  });

  test('/req/core/fc-timeStamp: the time the answer was made, in RFC 3339', async () => {
    const start = Math.floor(Date.now() / 1000) * 1000;
    const body = await itemsPage(t, '/ogc/collections/features/items?limit=1&sortby=-id');
    const end = Date.now();
    assert.match(body.timeStamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const stamp = Date.parse(body.timeStamp);
    assert.ok(start <= stamp && stamp <= end, `${body.timeStamp} between the request and its answer`);
  });

  test('/req/core/fc-links, /req/core/fc-rel-type: self and alternate (plain JSON), next and prev typed', async () => {
    const body = await itemsPage(t, '/ogc/collections/features/items?limit=5&bbox=-1,50,1,52');
    assertLinksTyped(body.links, 'items');
    const self = linkOf(body, 'self')!;
    assert.equal(self.type, GEOJSON);
    assert.deepEqual(new URL(self.href).searchParams.getAll('bbox'), ['-1,50,1,52']);
    const alternate = linkOf(body, 'alternate')!;
    assert.equal(alternate.type, JSON_TYPE);
    const plain = await t.request(linkPath(t, alternate.href));
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], JSON_TYPE);
    assert.deepEqual(plain.json().features, body.features);
    assert.equal(linkOf(body, 'next')!.type, GEOJSON);
    const second = await itemsPage(t, linkPath(t, linkOf(body, 'next')!.href));
    assert.equal(linkOf(second, 'prev')!.type, GEOJSON);
  });

  for (const [c, limit] of [['features', 7], ['features', 2], ['images', 2], ['documents', 1], ['media', 2]] as const) {
    test(`/req/core/fc-links (next): ${c} with limit=${limit}, following next to the end gives every item exactly once, in order`, async () => {
      const { pages, bodies } = await walkNext(t, `/ogc/collections/${c}/items?limit=${limit}`);
      assert.deepEqual(pages.flat(), ids(c));
      assert.equal(pages.length, Math.ceil(ids(c).length / limit));
      for (const body of bodies) assert.equal(body.numberMatched, ids(c).length);
      assert.equal(linkOf(bodies[0], 'prev'), undefined, 'no prev on the first page');
    });
  }

  test('/req/core/fc-links (prev): the prev link of each later page gives back the page before it', async () => {
    for (const path of ['/ogc/collections/features/items?limit=9', '/ogc/collections/features/items?limit=4&datetime=1880-01-01/1890-12-31', '/ogc/collections/images/items?limit=2']) {
      const { pages, bodies } = await walkNext(t, path);
      assert.ok(pages.length >= 3, path);
      for (let k = 1; k < pages.length; k++) {
        const prev = await itemsPage(t, linkPath(t, linkOf(bodies[k], 'prev')!.href));
        assert.deepEqual(prev.features.map((f: { id: number }) => f.id), pages[k - 1], `${path}: prev of page ${k + 1}`);
        assert.equal(prev.numberMatched, bodies[0].numberMatched);
        // …and its next link leads forward again.
        const again = await itemsPage(t, linkPath(t, linkOf(prev, 'next')!.href));
        assert.deepEqual(again.features.map((f: { id: number }) => f.id), pages[k], `${path}: next of prev of page ${k + 1}`);
      }
    }
  });

  test('/req/core/fc-links: next and prev keep every other parameter', async () => {
    const path = '/ogc/collections/features/items?limit=3&bbox=-1,50,1,52&datetime=1880-01-01/1890-12-31&sortby=-current&street=Osborn+Street';
    const body = await itemsPage(t, path);
    const next = new URL(linkOf(body, 'next')!.href);
    for (const name of ['limit', 'bbox', 'datetime', 'sortby', 'street']) assert.deepEqual(next.searchParams.getAll(name), new URL(`http://x${path}`).searchParams.getAll(name), name);
  });

  test('/req/core/query-param-invalid: an after or before value that is not one of the server\'s → 400', async () => {
    for (const query of ['after=abc!', 'before=%20', 'after=WzNd&before=WzNd', 'after=' + Buffer.from('{"a":1}').toString('base64url'), 'after=' + Buffer.from('["x"]').toString('base64url')]) {
      await ogc400(t, `/ogc/collections/features/items?${query}`);
    }
    // A cursor of one sortby does not serve another.
    const body = await itemsPage(t, '/ogc/collections/features/items?limit=2&sortby=current');
    const after = new URL(linkOf(body, 'next')!.href).searchParams.get('after')!;
    await ogc400(t, `/ogc/collections/features/items?limit=2&after=${after}`);
  });
});

describe('OGC Part 1 core: one item', () => {
  test('/req/core/f-op, /req/core/f-success, /req/geojson/content B: each item at its path, id equal to the path\'s, properties as in the catalogue', async () => {
    for (const c of COLLECTIONS) {
      const sample = c === 'features' ? expected[c].filter((_i, n) => n % 10 === 0 || n < 3) : expected[c];
      for (const item of sample) {
        const answer = await t.request(`/ogc/collections/${c}/items/${item.id}`);
        assert.equal(answer.status, 200, `${c}/${item.id}`);
        assert.equal(answer.headers['content-type'], GEOJSON);
        const body = answer.json();
        assert.equal(body.type, 'Feature');
        assert.equal(body.id, item.id);
        assert.deepEqual(body.geometry, item.geometry);
        for (const [name, value] of Object.entries(item.properties)) assert.deepEqual(body.properties[name], value, `${c}/${item.id}: ${name}`);
      }
    }
  });

  test('/req/core/f-links: self, alternate and collection links, typed', async () => {
    const body = await ogcJson(t, '/ogc/collections/images/items/7');
    assertLinksTyped(body.links, 'item');
    assert.deepEqual(linkOf(body, 'self'), { href: `${t.origin}/ogc/collections/images/items/7`, rel: 'self', type: GEOJSON, title: linkOf(body, 'self')!.title });
    assert.equal(linkOf(body, 'collection')!.href, `${t.origin}/ogc/collections/images`);
    assert.equal(linkOf(body, 'collection')!.type, JSON_TYPE);
    const alternate = linkOf(body, 'alternate')!;
    assert.equal(alternate.type, JSON_TYPE);
    const plain = await t.request(linkPath(t, alternate.href));
    assert.equal(plain.headers['content-type'], JSON_TYPE);
    assert.deepEqual({ ...plain.json(), links: null }, { ...body, links: null });
  });

  test('a building with published pictures, and each picture, link their IIIF manifest (related, typed JSON-LD); a building without none', async () => {
    const iiif = 'application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"';
    const pictured = new Set(catalogue.images.filter((i) => i.published).map((i) => i.feature));
    const related = (body: { links: Link[] }) => body.links.filter((l) => l.rel === 'related');
    const withPictures = ids('features').find((id) => pictured.has(id));
    const without = ids('features').find((id) => !pictured.has(id));
    assert.ok(withPictures !== undefined && without !== undefined);
    assert.deepEqual(related(await ogcJson(t, `/ogc/collections/features/items/${withPictures}`)).map((l) => [l.href, l.type]), [[`${t.origin}/iiif/places/${withPictures}/manifest.json`, iiif]]);
    assert.deepEqual(related(await ogcJson(t, `/ogc/collections/features/items/${without}`)), []);
    assert.deepEqual(related(await ogcJson(t, '/ogc/collections/images/items/7')).map((l) => [l.href, l.type]), [[`${t.origin}/iiif/pictures/7/manifest.json`, iiif]]);
  });

  test('/req/core/f-op: an unknown, unpublished or non-numeric id → 404', async () => {
    const paths = ['/ogc/collections/features/items/2', '/ogc/collections/features/items/999999', '/ogc/collections/images/items/8',
      '/ogc/collections/images/items/15', '/ogc/collections/documents/items/972', '/ogc/collections/media/items/6', '/ogc/collections/images/items/971',
      '/ogc/collections/features/items/abc', '/ogc/collections/features/items/1.0', '/ogc/collections/features/items/-1', '/ogc/collections/features/items/1e2',
      '/ogc/collections/features/items/99999999999999999999'];
    for (const path of paths) {
      const answer = await t.request(path);
      assert.equal(answer.status, 404, path);
      assert.deepEqual(Object.keys(answer.json()).sort(), ['code', 'description'], path);
    }
  });
});

describe('OGC: unpublished records never appear', () => {
  test('unpublished images, documents and media are in no list, filter, search or single item', async () => {
    const hidden: [Collection, number][] = [
      ...catalogue.images.filter((r) => !r.published).map((r): [Collection, number] => ['images', r.id]),
      ...catalogue.documents.filter((r) => !r.published).map((r): [Collection, number] => ['documents', r.id]),
      ...catalogue.media.filter((r) => !r.published).map((r): [Collection, number] => ['media', r.id]),
    ];
    assert.ok(hidden.length >= 5);
    for (const [c, id] of hidden) {
      assert.ok(!(await allIds(t, `/ogc/collections/${c}/items`)).includes(id), `${c} ${id} listed`);
      assert.deepEqual(await allIds(t, `/ogc/collections/${c}/items?id=${id}`), [], `${c}?id=${id}`);
      assert.deepEqual(await allIds(t, `/ogc/collections/${c}/items?filter=${enc(`id = ${id} OR id < 0`)}`), [], `${c} filter id=${id}`);
      assert.equal((await t.request(`/ogc/collections/${c}/items/${id}`)).status, 404);
    }
    // Their titles are not found by q either; counts on features leave them out.
    assert.deepEqual(await allIds(t, `/ogc/collections/images/items?q=hidden`), []);
    assert.deepEqual(await allIds(t, `/ogc/collections/documents/items?q=draft`), []);
    const one = await ogcJson(t, '/ogc/collections/features/items/1');
    assert.deepEqual([one.properties.image_count, one.properties.document_count, one.properties.media_count], [1, 1, 1]);
  });
});

describe('OGC Part 1 GeoJSON', () => {
  test('/req/geojson/definition: geo+json for features, JSON for every other resource, schema+json for schemas', async () => {
    const types: [string, string][] = [
      ['/ogc/', JSON_TYPE], ['/ogc/conformance', JSON_TYPE], ['/ogc/collections', JSON_TYPE], ['/ogc/collections/media', JSON_TYPE],
      ['/ogc/collections/features/items', GEOJSON], ['/ogc/collections/media/items?limit=1', GEOJSON], ['/ogc/collections/features/items/1', GEOJSON],
      ['/ogc/collections/features/queryables', 'application/schema+json'], ['/ogc/collections/features/schema', 'application/schema+json'],
      ['/ogc/collections/features/items?f=json', JSON_TYPE], ['/ogc/collections/features/items/1?f=json', JSON_TYPE], ['/ogc/collections/features/queryables?f=json', JSON_TYPE],
    ];
    for (const [path, type] of types) {
      const answer = await t.request(path);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['content-type'], type, path);
      answer.json();
    }
  });

  test('/req/geojson/content: a FeatureCollection with features and links as a foreign member; a Feature alone with its links', async () => {
    for (const c of COLLECTIONS) {
      const body = await itemsPage(t, `/ogc/collections/${c}/items?limit=2`);
      assert.equal(body.type, 'FeatureCollection');
      assert.ok(Array.isArray(body.features) && Array.isArray(body.links));
      for (const f of body.features) {
        assert.equal(f.type, 'Feature');
        assert.equal(typeof f.id, 'number');
        assert.equal(f.geometry.type, 'MultiPolygon');
        assert.equal(typeof f.properties, 'object');
        assert.equal(f.properties.id, f.id, 'id also a property');
      }
      const one = await ogcJson(t, `/ogc/collections/${c}/items/${body.features[0].id}`);
      assert.equal(one.type, 'Feature');
      assert.ok(Array.isArray(one.links));
    }
  });
});
