// The map explorer's own data (/map/matches.json, /map/streets.json, /map/labels.json) on a
// demo catalogue: every id a search matches in a view (the API's pages walked to the end, and
// the catalogue's own boxes, are the oracles), street labels among their buildings, building labels in a box; bad input a 400.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import type { Feature } from '../../src/catalogue/format.js';
import { boundingBox } from '../../src/search/box.js';
import { appAfterUpgrade, startTestApp, type TestApp } from '../support/in-process.js';

const catalogue = generateDemoCatalogue({ scale: 0.1, seed: 4 });
/** The SQLite R*Tree keeps 32-bit floats rounded outwards. */
const NEAR = 2e-5;

function boxOf(features: readonly Feature[]): [number, number, number, number] {
  const boxes = features.map((f) => boundingBox(f.geometry));
  return [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
}

/** How many footprints' boxes meet the view, widened (or narrowed, `margin` < 0) on each side. */
function footprintsMeeting(view: readonly number[], margin: number): number {
  const [w, s, e, n] = [view[0]! - margin, view[1]! - margin, view[2]! + margin, view[3]! + margin];
  return catalogue.features.filter((f) => {
    const b = boundingBox(f.geometry);
    return b[2] >= w && b[0] <= e && b[3] >= s && b[1] <= n;
  }).length;
}

describe('a view holding more footprints than MAP_MATCHES_VIEW_FOOTPRINTS', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue, settings: { mapMatchesViewFootprints: '50' } });
  });
  after(async () => t.close());

  test('lists no match and says it is wide; a view of fewer lists its matches', async () => {
    const whole = boxOf(catalogue.features);
    assert.ok(footprintsMeeting(whole, -NEAR) > 50);
    const wide = (await t.request(`/map/matches.json?year_range=1700&bbox=${whole.join(',')}`)).json();
    assert.deepEqual(wide, { wide: true, count: 0, ids: [] });
    // Around one matching footprint: a few footprints, so its matches are listed.
    const match = catalogue.features.find((f) => f.current !== null && f.current >= 1700)!;
    const view = boundingBox(match.geometry);
    assert.ok(footprintsMeeting(view, NEAR) <= 50);
    const narrow = (await t.request(`/map/matches.json?year_range=1700&bbox=${view.join(',')}`)).json();
    assert.equal(narrow.wide, false);
    assert.ok(narrow.ids.includes(match.id), `${match.id} listed`);
  });
});

// A view holding the catalogue's whole extent is counted from the stored count of features
// (read-plans.ts viewCandidates); every other view in the spatial index. Both bounds, exactly.
for (const [bound, wide] of [[catalogue.features.length - 1, true], [catalogue.features.length, false]] as const) {
  describe(`the whole world in view, MAP_MATCHES_VIEW_FOOTPRINTS ${bound} of ${catalogue.features.length} footprints`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ catalogue, settings: { mapMatchesViewFootprints: String(bound) } });
    });
    after(async () => t.close());

    test(wide ? 'one footprint more than the bound: wide' : 'as many footprints as the bound: every match listed', async () => {
      const expected = catalogue.features.filter((f) => f.current !== null && f.current >= 1700).map((f) => f.id).sort((a, b) => a - b);
      for (const view of ['-180,-90,180,90', boxOf(catalogue.features).map((v, i) => v + (i < 2 ? -0.001 : 0.001)).join(',')]) {
        const body = (await t.request(`/map/matches.json?year_range=1700&bbox=${view}`)).json();
        assert.deepEqual(body, wide ? { wide: true, count: 0, ids: [] } : { wide: false, count: expected.length, ids: expected }, view);
      }
    });
  });
}

describe('the map explorer’s data', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ catalogue });
  });
  after(async () => t.close());

  /** Every id of a search, by walking the API's pages. */
  async function apiIds(query: string): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const body = (await t.request(`/api/v1/features/?${query}&page_size=100&page=${page}`)).json();
      ids.push(...body.results.features.map((f: { id: number }) => f.id));
      if (body.next === null) return ids.sort((a, b) => a - b);
    }
  }

  /** The middle of the catalogue: a view holding some of its footprints, cutting across others. */
  function middleView(): [number, number, number, number] {
    const [w, s, e, n] = boxOf(catalogue.features);
    return [w + (e - w) / 4, s + (n - s) / 4, e - (e - w) / 4, n - (n - s) / 4];
  }

  for (const query of ['year_range=1700', 'q=street', 'categories=1,2,3', 'tags=pub', 'q=zzzznothing']) {
    test(`/map/matches.json?${query}&bbox=…: every match meeting the view (not a page), ascending`, async () => {
      const bbox = middleView().join(',');
      const answer = await t.request(`/map/matches.json?${query}&bbox=${bbox}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'application/json');
      const body = answer.json();
      const expected = await apiIds(`${query}&bbox=${bbox}`);
      assert.deepEqual(body, { wide: false, count: expected.length, ids: expected });
    });
  }

  test('the matches in a view, from the catalogue itself: those whose box lies inside it, none whose box misses it', async () => {
    const view = middleView();
    const body = (await t.request(`/map/matches.json?year_range=1700&bbox=${view.join(',')}`)).json();
    const listed = new Set<number>(body.ids);
    const matching = catalogue.features.filter((f) => f.current !== null && f.current >= 1700);
    const inside = matching.filter((f) => {
      const [w, s, e, n] = boundingBox(f.geometry);
      return w > view[0] + NEAR && s > view[1] + NEAR && e < view[2] - NEAR && n < view[3] - NEAR;
    });
    const missing = catalogue.features.filter((f) => {
      const [w, s, e, n] = boundingBox(f.geometry);
      return e < view[0] - NEAR || w > view[2] + NEAR || n < view[1] - NEAR || s > view[3] + NEAR;
    });
    assert.ok(inside.length > 100, `${inside.length} inside`);
    assert.deepEqual(inside.map((f) => f.id).filter((id) => !listed.has(id)), []);
    assert.deepEqual(missing.map((f) => f.id).filter((id) => listed.has(id)), []);
    assert.ok(body.ids.every((id: number) => matching.some((f) => f.id === id)));
  });

  test('the whole catalogue in view: a search with more than a page of matches gives them all', async () => {
    const body = (await t.request(`/map/matches.json?year_range=1700&bbox=-180,-90,180,90`)).json();
    const expected = catalogue.features.filter((f) => f.current !== null && f.current >= 1700).map((f) => f.id).sort((a, b) => a - b);
    assert.ok(expected.length > 100, `${expected.length} matches`);
    assert.deepEqual(body, { wide: false, count: expected.length, ids: expected });
  });

  test('without a view, /map/matches.json is the API’s 400 naming bbox: every match of the catalogue is never asked for', async () => {
    const answer = await t.request('/map/matches.json?q=street');
    assert.equal(answer.status, 400);
    assert.match(answer.json().detail, /^Invalid bbox: /);
  });

  test('a malformed parameter is the API’s 400, naming it', async () => {
    for (const [path, name] of [['/map/matches.json?year_range=soon', 'year_range'], ['/map/matches.json?bbox=1,2', 'bbox'], ['/map/labels.json', 'bbox'], ['/map/labels.json?bbox=a,b,c,d', 'bbox']]) {
      const answer = await t.request(path!);
      assert.equal(answer.status, 400, path);
      assert.match(answer.json().detail, new RegExp(`^Invalid ${name}: `), path);
    }
  });

  /** The answer cache's misses so far, from /metrics. */
  async function cacheMisses(): Promise<number> {
    const text = (await t.request('/metrics')).text;
    const misses = /^heritage_answer_cache_misses_total (\d+)$/m.exec(text)?.[1];
    assert.ok(misses !== undefined, 'the misses are in /metrics');
    return Number(misses);
  }

  test('a query string varied at each request is answered from the cache: the answer is kept under what it depends on, not the URL', async () => {
    const [west, south] = boxOf(catalogue.features);
    const families = [
      // Parameters the answers ignore, and spellings of one search, one box.
      Array.from({ length: 6 }, (_, i) => `/map/streets.json?x=${i}`),
      ['/map/matches.json?q=Street&bbox=-1,51,1,52', '/map/matches.json?q=street&x=1&bbox=-1,51,1,52', '/map/matches.json?q=STREET&q=street&bbox=-1.0,51,1,52', '/map/matches.json?x=2&bbox=-1,51,1,52&q=street'],
      [`/map/labels.json?bbox=${west},${south},${west + 0.01},${south + 0.01}`, `/map/labels.json?bbox=${west}0,${south}0,${west + 0.01},${south + 0.01}&x=3`],
    ];
    for (const urls of families) {
      const first = await t.request(urls[0]!);
      assert.equal(first.status, 200, urls[0]);
      const before = await cacheMisses();
      for (const url of urls) {
        const answer = await t.request(url);
        assert.equal(answer.text, first.text, url);
        assert.equal(answer.headers.etag, first.headers.etag, url);
      }
      assert.equal(await cacheMisses(), before, `none of ${urls.join(', ')} computed again`);
    }
  });

  test('/map/streets.json: each street of the catalogue labelled by its buildings, turned to be read', async () => {
    const body = (await t.request('/map/streets.json')).json();
    const streets = new Map<string, Feature[]>();
    for (const f of catalogue.features) if (f.street) streets.set(f.street.toLowerCase(), [...(streets.get(f.street.toLowerCase()) ?? []), f]);
    const labelled = new Set(body.streets.map((s: { name: string }) => s.name.toLowerCase()));
    assert.deepEqual([...labelled].sort(), [...streets.keys()].sort());
    for (const label of body.streets) {
      // Within its buildings' box, widened by the 14 m from a row of buildings to the street's middle.
      const [minLon, minLat, maxLon, maxLat] = boxOf(streets.get(label.name.toLowerCase())!);
      const FRONT = 14 / 111_320 / Math.cos((51.5 * Math.PI) / 180) + NEAR;
      assert.ok(label.lon >= minLon - FRONT && label.lon <= maxLon + FRONT && label.lat >= minLat - FRONT && label.lat <= maxLat + FRONT, JSON.stringify(label));
      assert.ok(Number.isInteger(label.angle) && label.angle >= -90 && label.angle < 90, JSON.stringify(label));
    }
  });

  test('/map/labels.json: the numbered or named buildings meeting the box, at their centre', async () => {
    const target = catalogue.features.find((f) => f.b_number)!;
    const [minLon, minLat, maxLon, maxLat] = boundingBox(target.geometry);
    const body = (await t.request(`/map/labels.json?bbox=${minLon},${minLat},${maxLon},${maxLat}`)).json();
    const label = body.buildings.find((b: { id: number }) => b.id === target.id);
    assert.deepEqual({ ...label, lon: undefined, lat: undefined }, { id: target.id, text: target.b_number, lon: undefined, lat: undefined });
    assert.ok(Math.abs(label.lon - (minLon + maxLon) / 2) < NEAR && Math.abs(label.lat - (minLat + maxLat) / 2) < NEAR);
    for (const b of body.buildings) {
      const f = catalogue.features.find((x) => x.id === b.id)!;
      assert.equal(b.text, f.b_number || f.b_name);
    }
  });
});

describe('a database made before the streets\' labels were kept', () => {
  let apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  test('is brought up to date, and then labels its streets as an import does', async () => {
    const imported = await startTestApp({ catalogue });
    const upgraded = await appAfterUpgrade(catalogue, {
      sqlite: "DROP TABLE street_labels; UPDATE meta SET value = '12' WHERE key = 'schema_version'",
      postgres: 'DROP TABLE street_labels; DELETE FROM schema_migrations WHERE version >= 17',
    });
    apps = [imported, upgraded];
    const expected = (await imported.request('/map/streets.json')).text;
    assert.ok(JSON.parse(expected).streets.length > 10);
    assert.equal((await upgraded.request('/map/streets.json')).text, expected);
  });
});
