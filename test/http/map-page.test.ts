// The map explorer's HTTP side: the page at / and /map/, its assets, and /map/config.json
// (extent, tiles, base map, legend) computed from the catalogue; the API paths untouched.
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import type { Catalogue } from '../../src/catalogue/format.js';
import { boundingBox } from '../../src/search/box.js';
import { CATEGORY_PALETTE } from '../../src/palette.js';
import { ensureWebBuilt } from '../support/map-page.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const catalogue = generateDemoCatalogue({ scale: 0.02, seed: 3 });
const BASEMAP = 'https://tiles.example.org/{z}/{x}/{y}.png';
const EMPTY: Catalogue = { format: 'heritage-catalogue/1', authors: [], categories: [], sites: [], features: [], images: [], documents: [], media: [] };

describe('the map page over HTTP', () => {
  let t: TestApp;
  before(async () => {
    await ensureWebBuilt();
    t = await startTestApp({ catalogue, settings: { basemapUrl: BASEMAP } });
  });
  after(async () => t.close());

  for (const path of ['/', '/map/']) {
    test(`${path} serves the page, scripts only from this server`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(answer.text, /<main id="map"/);
      assert.doesNotMatch(answer.text, /%BASE_PATH%|%SCRIPT%|https?:\/\//);
      assert.match(String(answer.headers['content-security-policy']), /script-src 'self';/);
      assert.equal(answer.headers['cache-control'], 'no-cache');
    });
  }

  test('/map redirects to /map/', async () => {
    const answer = await t.request('/map');
    assert.equal(answer.status, 301);
    assert.equal(answer.headers.location, '/map/');
  });

  test('every asset the page names is served, cached for a year', async () => {
    const html = (await t.request('/')).text;
    const assets = [...html.matchAll(/"(\/map\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(assets.length, 3);
    for (const asset of assets) {
      const answer = await t.request(asset);
      assert.equal(answer.status, 200, asset);
      assert.match(String(answer.headers['cache-control']), /max-age=31536000, immutable/);
      assert.match(String(answer.headers['content-type']), asset.endsWith('.css') ? /^text\/css/ : /javascript/);
    }
    assert.equal((await t.request('/map/assets/nothing.js')).status, 404);
  });

  test('assets are sent compressed to a client that accepts it (brotli, else gzip), the same bytes once decoded', async () => {
    const html = (await t.request('/')).text;
    const assets = [...html.matchAll(/"(\/map\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    for (const asset of assets) {
      const plain = await t.request(asset);
      assert.equal(plain.headers['content-encoding'], undefined, asset);
      for (const [accept, encoding, decode] of [['gzip, deflate, br', 'br', zlib.brotliDecompressSync], ['gzip', 'gzip', zlib.gunzipSync]] as const) {
        const answer = await t.request(asset, { headers: { 'accept-encoding': accept } });
        assert.equal(answer.headers['content-encoding'], encoding, `${asset} ${accept}`);
        assert.match(String(answer.headers.vary), /accept-encoding/i);
        assert.ok(answer.bytes.length < plain.bytes.length / 2, `${asset}: ${answer.bytes.length} of ${plain.bytes.length} bytes`);
        assert.ok(decode(answer.bytes).equals(plain.bytes), asset);
      }
    }
  });

  test('/map/config.json: the extent of every footprint, the tiles, the base map and the categories in use', async () => {
    const answer = await t.request('/map/config.json');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.ok(answer.headers.etag);
    const body = answer.json();
    // Oracle: src/search/box.ts's boundingBox (itself table-tested) gives each footprint's box.
    const boxes = catalogue.features.map((f) => boundingBox(f.geometry));
    const expected = [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
    // The SQLite R*Tree keeps 32-bit floats, rounded outwards: within a few centimetres.
    body.extent.forEach((v: number, i: number) => assert.ok(Math.abs(v - expected[i]!) < 1e-5, `extent[${i}] ${v} vs ${expected[i]}`));
    assert.equal(body.tiles, `${t.origin}/tiles/features/{z}/{x}/{y}.mvt`);
    assert.deepEqual(body.basemap, { kind: 'raster', url: BASEMAP });
    const counts = new Map<number, number>();
    for (const f of catalogue.features) for (const c of new Set(f.categories)) counts.set(c, (counts.get(c) ?? 0) + 1);
    // Colours by rank among every category by id, used or not (so the demo's thumbnails can agree).
    const rank = new Map([...catalogue.categories].sort((a, b) => a.id - b.id).map((c, i) => [c.id, i]));
    const categories = catalogue.categories.filter((c) => counts.has(c.id)).sort((a, b) => a.id - b.id).map((c) => ({
      id: c.id, name: c.name, description: c.description, thumbnail: `${t.origin}/media/${c.thumbnail.split('/').map(encodeURIComponent).join('/')}`, features: counts.get(c.id),
      colour: CATEGORY_PALETTE[rank.get(c.id)! % CATEGORY_PALETTE.length],
    }));
    assert.deepEqual(body.categories, categories);
  });

  test('the API paths are untouched', async () => {
    const answer = await t.request('/api/v1/');
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.json()), ['features', 'documents', 'images', 'media']);
  });

  test('an empty catalogue has no extent and no categories, and no base map without BASEMAP_URL', async () => {
    const empty = await startTestApp({ catalogue: EMPTY });
    try {
      const body = (await empty.request('/map/config.json')).json();
      assert.deepEqual(body, { extent: null, tiles: `${empty.origin}/tiles/features/{z}/{x}/{y}.mvt`, basemap: null, categories: [] });
    } finally {
      await empty.close();
    }
  });
});
