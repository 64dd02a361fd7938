// The map explorer in a real browser (Debian's Chromium, software WebGL) on a demo
// catalogue: drawn, searchable, clickable, safe with hostile document HTML, restorable
// from a shared URL, readable on a phone, plain about an empty catalogue and failures.
// Screenshots go to test-artifacts/ (git-ignored).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { browserSkipReason, launchBrowser, WEBGL_FLAGS } from '../support/browser.js';
import { request } from '../support/http.js';
import { ARTIFACTS_DIR, ensureWebBuilt, openWatchedPage, waitForMap, writeCatalogueMedia, type WatchedPage } from '../support/map-page.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const HOSTILE_BODY = '<p>Built in 1890.[^1] <a href="javascript:window.__hostile=\'link\'">a link</a></p>'
  + '<img src=x onerror="window.__hostile=\'onerror\'"><script>window.__hostile=\'script\'</script>'
  + '<p>[^1]: Survey notebook, 1890.</p>';

/** The demo catalogue, with one document whose body tries every way to run a script. */
function testCatalogue(): { catalogue: Catalogue; hostile: Feature; pictured: Feature } {
  const catalogue = generateDemoCatalogue({ scale: 0.05, seed: 8 });
  const published = catalogue.images.filter((i) => i.published);
  const pictured = catalogue.features.find((f) => f.feature_type === 'WHITECHAPEL_BUILDING' && published.some((i) => i.feature === f.id))!;
  const hostile = catalogue.features.find((f) => f.feature_type === 'WHITECHAPEL_BUILDING' && f.id !== pictured.id && f.categories.length > 0)!;
  const author = catalogue.authors[0]!.id;
  const id = Math.max(...catalogue.documents.map((d) => d.id)) + 1;
  catalogue.documents.push({ id, feature: hostile.id, author, title: 'A hostile body', body: HOSTILE_BODY, created: '2017-01-01', last_edited: '2017-01-02', published: true } as Catalogue['documents'][number]);
  return { catalogue, hostile, pictured };
}

function centreOf(feature: Feature): [number, number] {
  const ring = feature.geometry.coordinates[0]![0]!.slice(0, -1);
  return [ring.reduce((s, p) => s + p[0]!, 0) / ring.length, ring.reduce((s, p) => s + p[1]!, 0) / ring.length];
}

async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, name) });
}

/** Ids of the footprints the map library says it drew (optionally around a point of the map). */
function renderedIds(page: Page, point?: { x: number; y: number }): Promise<number[]> {
  return page.evaluate((at) => {
    const map = (globalThis as any).__map;
    const hits = at ? map.queryRenderedFeatures([at.x, at.y], { layers: ['footprints-fill'] }) : map.queryRenderedFeatures({ layers: ['footprints-fill'] });
    return [...new Set(hits.map((f: any) => f.properties.id as number))] as number[];
  }, point);
}

const skip = browserSkipReason();

describe('the map explorer in a browser', { skip }, () => {
  const { catalogue, hostile, pictured } = testCatalogue();
  let server: TestServer;
  let browser: Browser;
  const pages: WatchedPage[] = [];

  async function open(hash = '', viewport = DESKTOP, origin = server.origin): Promise<WatchedPage> {
    const watched = await openWatchedPage(browser, viewport);
    pages.push(watched);
    await watched.page.goto(`${origin}/${hash}`);
    await waitForMap(watched.page);
    return watched;
  }

  before(async () => {
    await ensureWebBuilt();
    const media = temporaryDir();
    writeCatalogueMedia(catalogue, media);
    server = await startTestServer({ catalogue, settings: { mediaRoot: media } });
    browser = await launchBrowser(WEBGL_FLAGS);
  });

  after(async () => {
    for (const p of pages) await p.close();
    await browser?.close();
    await server?.close();
  });

  test('loads with no console error and no request leaving 127.0.0.1, and draws the footprints', async () => {
    const { page, errors, requests } = await open();
    const drawn = await renderedIds(page);
    const ids = new Set(catalogue.features.map((f) => f.id));
    assert.ok(drawn.length > catalogue.features.length / 2, `only ${drawn.length} of ${catalogue.features.length} footprints drawn`);
    assert.deepEqual(drawn.filter((id) => !ids.has(id)), []);
    const legend = await page.locator('#legend-list .legend-entry').count();
    const inUse = new Set(catalogue.features.flatMap((f) => f.categories));
    assert.equal(legend, inUse.size);
    await screenshot(page, 'map-desktop.png');
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((url) => new URL(url).hostname !== '127.0.0.1' && !url.startsWith('data:')), []);
    assert.ok(requests.some((url) => url.includes('/tiles/features/')), 'the footprints come from the vector tiles');
    assert.ok(!requests.some((url) => url.includes('/api/v1/features/?') || url.endsWith('/api/v1/features/')), 'no feature list is downloaded to draw the map');
  });

  test('the search narrows the list to the API\'s matches, outlines them, and a chosen entry opens by keyboard', async () => {
    const { page, errors } = await open();
    const street = pictured.street!;
    await page.fill('#q', street);
    await page.press('#q', 'Enter');
    await page.locator('#results:not([hidden]) #results-list li').first().waitFor();
    const expected = (await request(server.origin, `/api/v1/features/?q=${encodeURIComponent(street)}&page_size=100`)).json();
    assert.ok(expected.count > 0 && expected.count < catalogue.features.length);
    const listed = await page.locator('#results-list .result').evaluateAll((buttons) => buttons.map((b: any) => Number(b.dataset.feature)));
    assert.deepEqual(listed, expected.results.features.map((f: { id: number }) => f.id));
    const outlined = await page.evaluate(() => JSON.stringify((globalThis as any).__map.getFilter('matches-line')));
    assert.equal(outlined, JSON.stringify(['in', ['get', 'id'], ['literal', listed]]));
    const entry = page.locator(`#results-list .result[data-feature="${pictured.id}"]`);
    await entry.focus();
    await page.keyboard.press('Enter');
    await page.locator('#panel-title').waitFor();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'panel-title');
    assert.equal(await page.locator('#panel .facts dd').first().textContent(), pictured.address);
    await waitForMap(page);
    assert.match(await page.evaluate(() => (globalThis as any).location.hash), new RegExp(`feature=${pictured.id}$`));
    await screenshot(page, 'map-desktop-search.png');
    await page.keyboard.press('Escape');
    await page.locator('#panel').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.dataset.feature), String(pictured.id));
    assert.doesNotMatch(await page.evaluate(() => (globalThis as any).location.hash), /feature=/);
    assert.deepEqual(errors, []);
  });

  test('clicking a footprint opens the panel with its address and images; a thumbnail opens the full picture', async () => {
    const [lon, lat] = centreOf(pictured);
    const { page, errors } = await open(`#map=18.5/${lat}/${lon}`);
    const point = await page.evaluate(([x, y]) => (globalThis as any).__map.project([x, y]), [lon, lat]);
    assert.ok((await renderedIds(page, point)).includes(pictured.id), 'the footprint is drawn under its centre');
    const box = (await page.locator('#map canvas').boundingBox())!;
    await page.mouse.click(box.x + point.x, box.y + point.y);
    await page.locator('#panel-title').waitFor();
    assert.equal(await page.locator('#panel .facts dd').first().textContent(), pictured.address);
    const files = catalogue.images.filter((i) => i.feature === pictured.id && i.published).sort((a, b) => a.id - b.id).map((i) => i.file);
    const shown = await page.locator('#panel .gallery img').evaluateAll((imgs) => imgs.map((i: any) => i.src as string));
    assert.deepEqual(shown.map((src) => decodeURIComponent(new URL(src).pathname)), files.map((f) => `/media/${f}`));
    await page.locator('#panel .gallery .thumb').first().click();
    await page.locator('#lightbox[open] #lightbox-img').waitFor();
    await page.waitForFunction(() => (globalThis as any).document.getElementById('lightbox-img').naturalWidth > 0);
    assert.equal(decodeURIComponent(new URL(await page.locator('#lightbox-img').evaluate((i: any) => i.src)).pathname), `/media/${files[0]}`);
    await screenshot(page, 'map-desktop-panel.png');
    await page.keyboard.press('Escape');
    await page.locator('#lightbox').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#panel').isVisible(), true, 'Esc closes the picture first, then the panel');
    assert.deepEqual(errors, []);
  });

  test('a document body\'s <script>, onerror= and javascript: link never run; its [^n] markers become linked footnotes', async () => {
    const { page } = await open(`#feature=${hostile.id}`);
    const body = page.locator('#panel .document-body').filter({ hasText: 'Built in 1890.' });
    await body.waitFor();
    await page.locator('#panel a').filter({ hasText: 'a link' }).click();
    assert.equal(await page.evaluate(() => (globalThis as any).__hostile), undefined);
    const html = await body.innerHTML();
    assert.doesNotMatch(html, /<script|onerror|javascript:/i);
    const ref = body.locator('sup a.footnote-ref');
    assert.equal(await ref.textContent(), '1');
    const target = (await ref.getAttribute('href'))!.slice(1);
    assert.equal((await body.locator(`li#${target}`).textContent())!.replace('↩', '').trim(), 'Survey notebook, 1890.');
    assert.doesNotMatch(html, /\[\^1\]/);
  });

  test('a shared URL restores the view and the selected feature; back and forward follow the selection', async () => {
    const [lon, lat] = centreOf(pictured);
    const { page } = await open(`#map=17/${lat.toFixed(5)}/${lon.toFixed(5)}&feature=${pictured.id}`);
    const view = await page.evaluate(() => {
      const map = (globalThis as any).__map;
      return { zoom: map.getZoom(), ...map.getCenter() };
    });
    assert.equal(view.zoom, 17);
    assert.ok(Math.abs(view.lat - lat) < 1e-5 && Math.abs(view.lng - lon) < 1e-5, JSON.stringify(view));
    await page.locator('#panel-title').waitFor();
    assert.equal(await page.locator('#panel .facts dd').first().textContent(), pictured.address);
    await page.keyboard.press('Escape');
    await page.locator('#panel').waitFor({ state: 'hidden' });
    await page.goBack();
    await page.locator('#panel-title').waitFor();
    assert.equal(await page.locator('#panel .facts dd').first().textContent(), pictured.address);
    await page.goForward();
    await page.locator('#panel').waitFor({ state: 'hidden' });
  });

  test('on a phone-sized screen the map, the search and the panel fit the width', async () => {
    const { page, errors } = await open('', PHONE);
    const fits = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
    assert.equal(await fits(), PHONE.width);
    for (const selector of ['#map', '#q', '.sidebar']) {
      const box = (await page.locator(selector).boundingBox())!;
      assert.ok(box.width > 100 && box.height > 20 && box.x >= 0 && box.x + box.width <= PHONE.width, `${selector}: ${JSON.stringify(box)}`);
    }
    await screenshot(page, 'map-phone.png');
    await page.evaluate((hash) => ((globalThis as any).location.hash = hash), `#feature=${pictured.id}`);
    await page.locator('#panel-title').waitFor();
    const panel = (await page.locator('#panel').boundingBox())!;
    assert.equal(Math.round(panel.width), PHONE.width);
    await screenshot(page, 'map-phone-panel.png');
    assert.deepEqual(errors, []);
  });

  test('failed and slow API answers are said plainly, and the page keeps working', async () => {
    const { page } = await open();
    await page.route('**/api/v1/features/?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"Service unavailable."}' }));
    await page.fill('#q', 'street');
    await page.press('#q', 'Enter');
    const failure = page.locator('#status [data-topic="search"]');
    await failure.filter({ hasText: 'The search failed: the server answered 503 (Service unavailable.)' }).waitFor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.unroute('**/api/v1/features/?*');
    await page.route('**/api/v1/features/?*', async (route) => {
      await held;
      await route.continue();
    });
    await failure.locator('button', { hasText: 'Try again' }).click();
    await failure.filter({ hasText: 'the server is slow to answer' }).waitFor();
    release();
    await page.locator('#results:not([hidden]) #results-list li').first().waitFor();
    await failure.waitFor({ state: 'detached' });
  });

  test('an empty catalogue is said plainly, with no error', async () => {
    const empty = await startTestServer({
      catalogue: { format: 'heritage-catalogue/1', authors: [], categories: [], sites: [], features: [], images: [], documents: [], media: [] },
    });
    try {
      const { page, errors } = await open('', DESKTOP, empty.origin);
      assert.equal((await page.locator('#status').textContent())!.trim(), 'The catalogue is empty: there are no buildings or places to show yet.');
      assert.deepEqual(await renderedIds(page), []);
      assert.deepEqual(errors, []);
    } finally {
      await empty.close();
    }
  });
});
