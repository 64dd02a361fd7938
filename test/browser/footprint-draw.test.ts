// The editors' footprint map (web/edit/footprint.ts) in a real browser (Debian's Chromium,
// software WebGL), on a page made of footprintField() and footprintAssets() with
// footprintPageHeaders(), served by a route added to the real app over a demo catalogue: a
// part drawn by clicking corners is written into the textarea, a corner dragged moves there
// too, a footprint typed into the textarea is drawn (parts and a hole), and the page passes
// axe, logs nothing (its Content-Security-Policy refuses nothing) and fits a 390 px screen.
// On SQLite here and on PostgreSQL through test/postgres/browser-footprint-draw.test.ts.
// Screenshots go to FOOTPRINT_SCREENS_DIR (default /tmp/footprint-screens; docs/screens/edit-footprint.jpeg is one).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { BrowserContext, Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { loadConfig } from '../../src/config.js';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import { CONTENT_TYPE_HTML } from '../../src/pages/headers.js';
import { PAGE_STYLE_PATH } from '../../src/pages/shell.js';
import { footprintAssets, footprintField, footprintHead, footprintPageHeaders } from '../../src/render/edit/footprint-field.js';
import { formatFootprint } from '../../src/editing/footprint-text.js';
import { openStore } from '../../src/store/open.js';
import { browserSkipReason, type ProfileBrowser } from '../support/browser.js';
import { ensureWebBuilt, launchMapBrowser, openWatchedPage, type WatchedPage } from '../support/map-page.js';
import { importInto, TEST_DEFAULTS, temporaryDir } from '../support/server.js';
import { createTestDatabase } from '../support/stores.js';

const SCREENS = process.env.FOOTPRINT_SCREENS_DIR ?? '/tmp/footprint-screens';
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 960, height: 900 };
const PHONE = { width: 390, height: 844 };
const PAGE_PATH = '/test/footprint/';
const skip = browserSkipReason();

type Point = { x: number; y: number };
type Lonlat = [number, number];

/** A form page as the editors' form holds the field (the page's own style sheet, the bundle's tags in its head). */
function formPage(baseUrl: string, geometryText: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Footprint</title>
<link rel="stylesheet" href="${baseUrl}${PAGE_STYLE_PATH}">
${footprintHead(footprintAssets(baseUrl))}</head>
<body>
<main id="main">
<h1>A building's footprint</h1>
<form method="post" action="${PAGE_PATH}">
${footprintField(geometryText, null)}
<p><button type="submit">Save</button></p>
</form>
</main>
</body>
</html>`;
}

/** The real app with the test's page added: a route registered before it listens. */
async function startFootprintServer(catalogue: Catalogue, features: Map<number, Feature>): Promise<{ origin: string; close(): Promise<void> }> {
  const database = createTestDatabase();
  await importInto(database.settings, catalogue);
  const downloads = temporaryDir();
  const config = loadConfig({ ...TEST_DEFAULTS, ...database.settings, logLevel: 'silent', downloadCacheDir: downloads }, {});
  const store = await openStore(config, { serving: true });
  const app: FastifyInstance = await buildApp({ store, config });
  app.get<{ Params: { id: string } }>(`${PAGE_PATH}:id`, async (request, reply) => {
    const feature = features.get(Number(request.params.id));
    const text = feature ? formatFootprint(feature.geometry.coordinates) : '';
    return reply.headers(footprintPageHeaders(config.basemapUrl)).type(CONTENT_TYPE_HTML).send(formPage(request.baseUrl, text));
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin: address,
    async close() {
      await app.close();
      await store.close();
      await database.drop();
      fs.rmSync(downloads, { recursive: true, force: true });
    },
  };
}

/** The textarea's footprint, parsed. */
async function textFootprint(page: Page): Promise<{ type: string; coordinates: Lonlat[][][] }> {
  return JSON.parse(await page.locator('#geometry').inputValue());
}

/** Waits until the textarea holds a footprint other than `old` (JSON.stringify of the parsed text). */
async function textChanged(page: Page, old: string): Promise<void> {
  await page.waitForFunction((prior) => {
    const value = (globalThis as any).document.getElementById('geometry').value;
    return value !== '' && JSON.stringify(JSON.parse(value)) !== prior;
  }, old);
}

/** Where a pixel of the map is, by MapLibre's own unproject, and how far a pixel reaches there. */
function lonlatAt(page: Page, point: Point): Promise<{ at: Lonlat; pixel: number }> {
  return page.evaluate(({ x, y }) => {
    const map = (globalThis as any).__map;
    const a = map.unproject([x, y]);
    const b = map.unproject([x + 1, y + 1]);
    return { at: [a.lng, a.lat] as [number, number], pixel: Math.max(Math.abs(b.lng - a.lng), Math.abs(b.lat - a.lat)) };
  }, point);
}

/** The ring's position nearest to a place, and its distance in degrees (the larger of the two axes). */
function nearest(ring: Lonlat[], [lon, lat]: Lonlat): number {
  return Math.min(...ring.map(([x, y]) => Math.max(Math.abs(x - lon), Math.abs(y - lat))));
}

describe('drawing a footprint on the editors\' map', { skip }, () => {
  const catalogue = generateDemoCatalogue({ scale: 0.05, seed: 8 });
  const existing = catalogue.features.find((f) => f.geometry.coordinates.length === 1 && f.geometry.coordinates[0]!.length === 1)!;
  let server: { origin: string; close(): Promise<void> };
  let browser: ProfileBrowser;
  let context: BrowserContext;
  const pages: WatchedPage[] = [];

  before(async () => {
    await ensureWebBuilt();
    server = await startFootprintServer(catalogue, new Map([[existing.id, existing]]));
    browser = await launchMapBrowser();
    context = browser.context;
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The form page of a building (0: a new one), its map drawn and the drawing ready. */
  async function open(id: number, viewport = DESKTOP): Promise<WatchedPage> {
    const watched = await openWatchedPage(context, viewport);
    pages.push(watched);
    await watched.page.goto(`${server.origin}${PAGE_PATH}${id}`);
    await watched.page.locator('[data-footprint][data-ready="true"]').waitFor({ timeout: 30_000 });
    await watched.page.waitForFunction(() => {
      const map = (globalThis as any).__map;
      return map.loaded() && map.areTilesLoaded() && !map.isMoving();
    }, undefined, { timeout: 30_000, polling: 100 });
    return watched;
  }

  async function mapBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await page.locator('.footprint-map canvas').boundingBox();
    assert.ok(box, 'the map has a canvas');
    return box;
  }

  test('a part drawn by clicking its corners is written into the textarea; a corner dragged in select mode moves there', async () => {
    const { page, errors } = await open(0);
    assert.equal(await page.locator('#geometry').inputValue(), '', 'a new building starts with no footprint');
    const box = await mapBox(page);
    const cx = Math.round(box.width / 2);
    const cy = Math.round(box.height / 2);
    const corners: Point[] = [{ x: cx - 80, y: cy - 60 }, { x: cx + 90, y: cy - 50 }, { x: cx + 70, y: cy + 70 }, { x: cx - 60, y: cy + 60 }];
    await page.getByRole('button', { name: 'Draw a part' }).click();
    assert.equal(await page.getByRole('button', { name: 'Draw a part' }).getAttribute('aria-pressed'), 'true');
    for (const c of [...corners, corners[0]!]) await page.mouse.click(box.x + c.x, box.y + c.y);
    await page.locator('[data-footprint][data-parts="1"]').waitFor();

    const drawn = await textFootprint(page);
    assert.equal(drawn.type, 'MultiPolygon');
    assert.equal(drawn.coordinates.length, 1);
    assert.equal(drawn.coordinates[0]!.length, 1, 'one ring, no hole');
    const ring = drawn.coordinates[0]![0]!;
    assert.equal(ring.length, corners.length + 1, 'four corners and the first repeated');
    assert.deepEqual(ring[0], ring[ring.length - 1]);
    for (const c of corners) {
      const { at, pixel } = await lonlatAt(page, c);
      assert.ok(nearest(ring, at) <= pixel + 1e-7, `a corner within a pixel of (${c.x}, ${c.y}): ${nearest(ring, at)} > ${pixel}`);
    }
    for (const value of ring.flat()) assert.equal(Math.round(value * 1e7) / 1e7, value, 'rounded to 7 decimals');

    // Select the part, then drag its second corner 40 px right and 30 px down.
    await page.getByRole('button', { name: 'Select and move' }).click();
    await page.mouse.click(box.x + cx, box.y + cy);
    await page.getByRole('button', { name: 'Delete the selected shape' }).and(page.locator(':enabled')).waitFor();
    const from = corners[1]!;
    const to = { x: from.x + 40, y: from.y + 30 };
    await page.mouse.move(box.x + from.x, box.y + from.y);
    await page.mouse.down();
    for (let step = 1; step <= 8; step++) await page.mouse.move(box.x + from.x + (40 * step) / 8, box.y + from.y + (30 * step) / 8);
    await page.mouse.up();
    await textChanged(page, JSON.stringify(drawn));
    const moved = (await textFootprint(page)).coordinates[0]![0]!;
    assert.equal(moved.length, ring.length, 'a corner moved, none added');
    const target = await lonlatAt(page, to);
    const origin = await lonlatAt(page, from);
    assert.ok(nearest(moved, target.at) <= 2 * target.pixel, 'the dragged corner is where it was dropped');
    assert.ok(nearest(moved, origin.at) > 10 * origin.pixel, 'and no longer where it was');
    for (const c of [corners[0]!, corners[2]!, corners[3]!]) {
      const { at, pixel } = await lonlatAt(page, c);
      assert.ok(nearest(moved, at) <= pixel + 1e-7, 'the other corners stay');
    }

    // The whole part dragged from inside it: every corner moves by the same.
    const grab = { x: cx - 20, y: cy + 10 };
    const beforeDrag = JSON.stringify(await textFootprint(page));
    await page.mouse.move(box.x + grab.x, box.y + grab.y);
    await page.mouse.down();
    // In steps of a pixel or so, as a hand moves: the first move or two, which start the drag, do not move the shape.
    for (let step = 1; step <= 50; step++) await page.mouse.move(box.x + grab.x - step, box.y + grab.y + step / 2);
    await page.mouse.up();
    await textChanged(page, beforeDrag);
    const shifted = (await textFootprint(page)).coordinates[0]![0]!;
    for (const c of [corners[0]!, corners[2]!, corners[3]!]) {
      const { at, pixel } = await lonlatAt(page, { x: c.x - 50, y: c.y + 25 });
      assert.ok(nearest(shifted, at) <= 3 * pixel, `the corner at (${c.x}, ${c.y}) moved with the part`);
    }

    await page.getByRole('button', { name: 'Delete the selected shape' }).click();
    await page.locator('[data-footprint][data-parts="0"]').waitFor();
    assert.equal(await page.locator('#geometry').inputValue(), '', 'deleting the only part empties the text');
    assert.deepEqual(errors, []);
  });

  test('a footprint typed into the textarea is drawn (two parts, a courtyard); a courtyard drawn is written as its part\'s hole', async () => {
    const { page, errors } = await open(0);
    const box = await mapBox(page);
    const at = async (x: number, y: number) => (await lonlatAt(page, { x: box.width / 2 + x, y: box.height / 2 + y })).at;
    const square = async (x: number, y: number, size: number) => {
      const [a, b, c, d] = [await at(x, y), await at(x + size, y), await at(x + size, y + size), await at(x, y + size)];
      return [a, b, c, d, a];
    };
    const outer = await square(-150, -100, 200);
    const hole = await square(-90, -40, 80);
    const other = await square(100, -40, 120);
    const text = JSON.stringify({ type: 'MultiPolygon', coordinates: [[outer, hole], [other]] });
    await page.locator('#geometry').fill(text);
    await page.locator('[data-footprint][data-parts="2"][data-holes="1"]').waitFor();
    assert.equal(await page.locator('#geometry').inputValue(), text, 'drawing a typed text leaves it as typed');
    // What the map drew, at the centres of the courtyard, the first part beside it and the second part.
    // terra-draw's fill layer (td-polygon): a shape across tiles comes once per tile, under one id.
    await page.waitForFunction(() => new Set((globalThis as any).__map.queryRenderedFeatures({ layers: ['td-polygon'] }).map((f: any) => f.id)).size === 3);
    const modesAt = (x: number, y: number) => page.evaluate(([px, py]) => {
      const hits = (globalThis as any).__map.queryRenderedFeatures([px, py], { layers: ['td-polygon'] });
      return hits.map((f: any) => f.properties.mode as string).sort();
    }, [box.width / 2 + x, box.height / 2 + y]);
    assert.deepEqual(await modesAt(-50, 0), ['hole', 'polygon'], 'the courtyard drawn over its part');
    assert.deepEqual(await modesAt(-120, -80), ['polygon']);
    assert.deepEqual(await modesAt(130, -10), ['polygon']);
    assert.deepEqual(await modesAt(0, 150), []);

    // A courtyard drawn with the mouse in the second part is written as that part's hole, clockwise.
    await page.getByRole('button', { name: 'Draw a hole' }).click();
    // Corners more than terra-draw's 40 px apart: a click that near the last corner closes the ring.
    const courtyard: Point[] = [{ x: 115, y: -25 }, { x: 195, y: -25 }, { x: 195, y: 55 }, { x: 115, y: 55 }].map((p) => ({ x: box.width / 2 + p.x, y: box.height / 2 + p.y }));
    for (const c of [...courtyard, courtyard[0]!]) await page.mouse.click(box.x + c.x, box.y + c.y);
    await page.locator('[data-footprint][data-parts="2"][data-holes="2"]').waitFor();
    const written = (await textFootprint(page)).coordinates;
    assert.deepEqual(written.map((polygon) => polygon.length), [2, 2], 'each part with its hole');
    const drawnHole = written[1]![1]!;
    assert.equal(drawnHole.length, 5);
    for (const c of courtyard) {
      const { at, pixel } = await lonlatAt(page, c);
      assert.ok(nearest(drawnHole, at) <= pixel + 1e-7, 'the courtyard\'s corners where clicked');
    }
    const area = drawnHole.slice(1).reduce((sum, [x, y], i) => sum + drawnHole[i]![0] * y - x * drawnHole[i]![1], 0);
    assert.ok(area < 0, 'a hole is clockwise');

    await page.locator('#geometry').fill('{"type": "MultiPolygon", "coordinates": [');
    await page.locator('.footprint-problem:not([hidden])').waitFor();
    assert.match(await page.locator('.footprint-problem').textContent() ?? '', /not JSON/);
    assert.equal(await page.locator('[data-footprint]').getAttribute('data-holes'), '2', 'a text being typed leaves the map as it was');
    assert.deepEqual(errors, []);
  });

  test('a building\'s footprint opens fitted to the map; the page passes axe and fits a 390 px screen', async () => {
    for (const [size, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
      const { page, errors } = await open(existing.id, viewport);
      assert.equal(await page.locator('[data-footprint]').getAttribute('data-parts'), '1');
      const box = await mapBox(page);
      const pixels: Point[] = await page.evaluate((ring) => ring.map((p) => (globalThis as any).__map.project(p)), existing.geometry.coordinates[0]![0]!);
      for (const p of pixels) assert.ok(p.x > 0 && p.x < box.width && p.y > 0 && p.y < box.height, `${size}: the footprint is in view (${p.x}, ${p.y})`);
      // Close enough to see it and its neighbours (a building is fitted at zoom 19 at most).
      const zoom: number = await page.evaluate(() => (globalThis as any).__map.getZoom());
      assert.ok(zoom > 17 && zoom <= 19, `${size}: zoom ${zoom}`);
      const wide = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      assert.ok(wide <= viewport.width, `${size}: ${wide} px wide`);
      for (const name of ['Select and move', 'Draw a part', 'Draw a hole', 'Show the whole footprint']) {
        const button = await page.getByRole('button', { name }).boundingBox();
        assert.ok(button && button.x >= 0 && button.x + button.width <= viewport.width, `${size}: ${name} on screen`);
      }
      // axe through the debugger, which the page's CSP does not govern; its errors stay in `errors`.
      await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate(async () => {
        const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
        return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
      });
      assert.deepEqual(violations, [], size);
      const centre = pixels.reduce((sum, p) => ({ x: sum.x + p.x / pixels.length, y: sum.y + p.y / pixels.length }), { x: 0, y: 0 });
      const fromTiles: number[] = await page.evaluate(({ x, y }) => (globalThis as any).__map.queryRenderedFeatures([x, y], { layers: ['footprints-fill'] }).map((f: any) => f.properties.id), centre);
      assert.ok(fromTiles.includes(existing.id), `${size}: the site's own tiles are drawn under the drawing`);
      // Selected, with its corners' handles, for the screenshot.
      await page.mouse.click(box.x + centre.x, box.y + centre.y);
      await page.getByRole('button', { name: 'Delete the selected shape' }).and(page.locator(':enabled')).waitFor();
      await page.screenshot({ path: path.join(SCREENS, `edit-footprint-${size}.jpeg`), type: 'jpeg', quality: 70, fullPage: true });
      assert.deepEqual(errors, [], size);
    }
  });

  test('the buttons are reached by Tab and pressed with the keyboard', async () => {
    const { page } = await open(existing.id);
    await page.getByRole('button', { name: 'Select and move' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent), 'Draw a part');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('[data-footprint]').getAttribute('data-mode'), 'polygon');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    assert.equal(await page.locator('[data-footprint]').getAttribute('data-mode'), 'hole');
  });
});
