// Another site's map draws our footprints (issue 20): a page served by a second server on
// another port (its own copy of MapLibre GL JS, as any site would host or take from a CDN)
// opens a MapLibre map whose only source is our TileJSON, as docs/gis.md's example does. The
// browser enforces CORS on the TileJSON and every tile; the footprints and the points of
// the small ones must be drawn, with no error, on SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSkipReason, launchWithProfile, WEBGL_FLAGS, type ProfileBrowser } from '../support/browser.js';
import { ROOT } from '../support/root.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createTestDatabase, postgresUnavailableReason, type StoreKind } from '../support/stores.js';
import { buildTileCatalogue, CROWD_CORNER } from '../support/tile-catalogue.js';

const skip = browserSkipReason();
const MAPLIBRE_DIR = path.join(ROOT, 'node_modules/maplibre-gl/dist');

/** The other site: its page (docs/gis.md's example) and MapLibre's files. */
const PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>another site</title><link rel="stylesheet" href="/maplibre/maplibre-gl.css"></head>
<body style="margin:0"><div id="map" style="width:800px;height:600px"></div>
<script type="module">
import { Map, setWorkerUrl } from '/maplibre/maplibre-gl.mjs';
setWorkerUrl('/maplibre/maplibre-gl-worker.mjs');
const params = new URLSearchParams(location.search);
const api = params.get('api');
window.errors = [];
const map = new Map({
  container: 'map',
  center: [Number(params.get('lon')), Number(params.get('lat'))],
  zoom: Number(params.get('zoom')),
  style: {
    version: 8,
    sources: { heritage: { type: 'vector', url: api + '/tiles/features.json' } },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#f5f2eb' } },
      { id: 'footprints', type: 'fill', source: 'heritage', 'source-layer': 'features', paint: { 'fill-color': '#b5523b' } },
      { id: 'small-footprints', type: 'circle', source: 'heritage', 'source-layer': 'points', paint: { 'circle-radius': 3, 'circle-color': '#b5523b' } },
    ],
  },
});
map.on('error', (event) => window.errors.push(String(event.error && event.error.message)));
map.once('idle', () => { window.idle = true; });
window.map = map;
</script></body></html>`;

async function startOtherSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    const file = path.join(MAPLIBRE_DIR, path.basename(url.pathname));
    if (!url.pathname.startsWith('/maplibre/') || !fs.existsSync(file)) return void res.writeHead(404).end();
    const type = file.endsWith('.css') ? 'text/css' : 'text/javascript';
    res.writeHead(200, { 'content-type': type }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What the map drew, by layer: distinct feature ids. A string, so that the test's compiler adds no helper the page lacks. */
function drawnIds(page: Page): Promise<{ footprints: number; points: number; errors: string[] }> {
  return page.evaluate(`(() => {
    const ids = (layer) => new Set(window.map.queryRenderedFeatures({ layers: [layer] }).map((f) => f.id)).size;
    return { footprints: ids('footprints'), points: ids('small-footprints'), errors: window.errors };
  })()`);
}

const postgresReason = await postgresUnavailableReason();

describe('a MapLibre map on another site draws the footprints from our TileJSON', { skip }, () => {
  let browser: ProfileBrowser;
  // The pages share one context: in a context of its own each page parsed MapLibre and compiled its shaders afresh.
  // A profile (launchWithProfile) keeps V8's code cache too: Chromium's CPU for the file from 10.6 s to 8.1 s.
  let context: BrowserContext;
  let site: Awaited<ReturnType<typeof startOtherSite>>;
  before(async () => {
    browser = await launchWithProfile(WEBGL_FLAGS, { viewport: { width: 800, height: 600 } });
    context = browser.context;
    site = await startOtherSite();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  for (const kind of ['sqlite', 'postgres'] as StoreKind[]) {
    const storeSkip = kind === 'postgres' && postgresReason !== null && process.env.HERITAGE_TEST_POSTGRES !== 'required' ? postgresReason : false;
    describe(kind, { skip: storeSkip }, () => {
      let server: TestServer;
      before(async () => {
        server = await startTestServer({ catalogue: buildTileCatalogue(), database: createTestDatabase(kind) });
      });
      after(() => server?.close());

      // Zoom 17: the crowd's footprints are polygons; zoom 12: each under 2 pixels, drawn as points.
      for (const [zoom, layer] of [[17, 'footprints'], [12, 'points']] as const) {
        test(`zoom ${zoom}: ${layer} drawn, no error, every request to our server allowed by CORS`, async () => {
          const page = await context.newPage();
          const failed: string[] = [];
          page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
          try {
            const [lon, lat] = [CROWD_CORNER[0]! + 0.0025, CROWD_CORNER[1]! + 0.0017];
            await page.goto(`${site.origin}/?api=${encodeURIComponent(server.origin)}&lon=${lon}&lat=${lat}&zoom=${zoom}`);
            await page.waitForFunction('window.idle === true', undefined, { timeout: 30_000 });
            const drawn = await drawnIds(page);
            assert.deepEqual(drawn.errors, []);
            assert.deepEqual(failed, []);
            assert.ok(drawn[layer] > 10, `${JSON.stringify(drawn)}`);
          } finally {
            await page.close();
          }
        });
      }
    });
  }
});
