// The map explorer in a real browser (Debian's Chromium, software WebGL) on a demo
// catalogue: drawn, searchable, clickable, safe with hostile document HTML, restorable
// from a shared URL, readable on a phone, plain about an empty catalogue and failures; on
// SQLite here, and on PostgreSQL through test/postgres/browser-map.test.ts (there, the tests
// of what the page draws and finds from the store: not those marked pageTest).
// Screenshots go to test-artifacts/ (git-ignored).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { generateDemoCatalogue } from '../../src/demo/demo.js';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { testStoreKind } from '../support/stores.js';
import { browserSkipReason, type ProfileBrowser } from '../support/browser.js';
import { request } from '../support/http.js';
import { ARTIFACTS_DIR, ensureWebBuilt, launchMapBrowser, openWatchedPage, waitForMap, writeCatalogueMedia, type WatchedPage } from '../support/map-page.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

/**
 * Wider than the page's phone layout (700 px). Software WebGL's cost grows with the pixels
 * drawn: at 1280 × 800 the suite's Chromium took some 6 s of CPU more.
 */
const DESKTOP = { width: 960, height: 600 };
/** A desktop showing more than 100 of the matches of a search at the opening view. */
const WIDE_DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const HOSTILE_BODY = '<p>Built in 1890.[^1] <a href="javascript:window.__hostile=\'link\'">a link</a></p>'
  + '<img src=x onerror="window.__hostile=\'onerror\'"><script>window.__hostile=\'script\'</script>'
  + '<p><img src="http://192.0.2.7/tracker.png" alt="A picture kept elsewhere"></p>'
  + '<p>[^1]: Survey notebook, 1890.</p>';
const NOTED_BODY = '<p>Rebuilt in 1921.[^1]</p><p>[^1]: Rate books, 1921.</p>';
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The demo catalogue, with one document whose body tries every way to run a script. */
function testCatalogue(): { catalogue: Catalogue; hostile: Feature; pictured: Feature; noted: Feature } {
  const catalogue = generateDemoCatalogue({ scale: 0.05, seed: 8 });
  const published = catalogue.images.filter((i) => i.published);
  const pictured = catalogue.features.find((f) => f.feature_type === 'WHITECHAPEL_BUILDING' && published.some((i) => i.feature === f.id))!;
  const hostile = catalogue.features.find((f) => f.feature_type === 'WHITECHAPEL_BUILDING' && f.id !== pictured.id && f.categories.length > 0)!;
  const author = catalogue.authors[0]!.id;
  const id = Math.max(...catalogue.documents.map((d) => d.id)) + 1;
  catalogue.documents.push({ id, feature: hostile.id, author, title: 'A hostile body', body: HOSTILE_BODY, created: '2017-01-01', last_edited: '2017-01-02', published: true } as Catalogue['documents'][number]);
  // Two documents with notes on one building: its panel shows two lists of notes.
  const noted = catalogue.features.find((f) => f.feature_type === 'WHITECHAPEL_BUILDING' && f.id !== pictured.id && f.id !== hostile.id)!;
  for (const [k, title] of ['A survey', 'A later survey'].entries()) {
    catalogue.documents.push({ id: id + 1 + k, feature: noted.id, author, title, body: NOTED_BODY, created: '2018-01-01', last_edited: '2018-01-02', published: true } as Catalogue['documents'][number]);
  }
  return { catalogue, hostile, pictured, noted };
}

/** Text as a literal part of a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function centreOf(feature: Feature): [number, number] {
  const ring = feature.geometry.coordinates[0]![0]!.slice(0, -1);
  return [ring.reduce((s, p) => s + p[0]!, 0) / ring.length, ring.reduce((s, p) => s + p[1]!, 0) / ring.length];
}

async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, name) });
}

/** Ids of the footprints the map library says it drew (optionally around a point of the map), in a layer. */
function renderedIds(page: Page, point?: { x: number; y: number }, layer = 'footprints-fill'): Promise<number[]> {
  return page.evaluate(([at, layer]) => {
    const map = (globalThis as any).__map;
    const hits = at ? map.queryRenderedFeatures([at.x, at.y], { layers: [layer] }) : map.queryRenderedFeatures({ layers: [layer] });
    return [...new Set(hits.map((f: any) => f.properties.id as number))].sort((a: any, b: any) => a - b) as number[];
  }, [point, layer] as const);
}

/**
 * How many footprints the map drew: those drawn as polygons, and those standing behind the
 * points of footprints too small to see at this zoom (a point per cell, with its count).
 */
function renderedPoints(page: Page): Promise<{ id: number; count: number }[]> {
  return page.evaluate(() => {
    const map = (globalThis as any).__map;
    const hits = map.queryRenderedFeatures({ layers: ['footprints-points'] });
    const byId = new Map<number, number>(hits.map((f: any) => [f.properties.id as number, f.properties.count as number]));
    return [...byId].map(([id, count]) => ({ id, count }));
  });
}

const skip = browserSkipReason();

/**
 * A test of what the page alone decides (its layout, its URL, its colours, answers a route hands it):
 * on SQLite only. On PostgreSQL the page reads the same bytes (the HTTP suites on both
 * stores and postgres/tiles-agree prove it), so there only the tests of what it draws and
 * finds from the store run again, and the Chromium CPU of the second run is about halved.
 */
function pageTest(name: string, fn: () => Promise<void>): void {
  if (testStoreKind() === 'sqlite') test(name, fn);
}

describe('the map explorer in a browser', { skip }, () => {
  const { catalogue, hostile, pictured, noted } = testCatalogue();
  let server: TestServer;
  let browser: ProfileBrowser;
  let context: BrowserContext;
  const pages: WatchedPage[] = [];

  /** Every id of a search, by walking the API's pages (the oracle of what the map outlines). */
  async function apiIds(query: string): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const body = (await request(server.origin, `/api/v1/features/?${query}&page_size=100&page=${page}`)).json();
      ids.push(...body.results.features.map((f: { id: number }) => f.id));
      if (body.next === null) return ids;
    }
  }

  async function open(hash = '', viewport = DESKTOP, origin = server.origin, motion = false): Promise<WatchedPage> {
    const watched = await openWatchedPage(context, viewport, { motion });
    pages.push(watched);
    await watched.page.goto(`${origin}/${hash}`);
    await waitForMap(watched.page);
    return watched;
  }

  let media: string;

  before(async () => {
    await ensureWebBuilt();
    media = temporaryDir();
    writeCatalogueMedia(catalogue, media);
    server = await startTestServer({ catalogue, settings: { mediaRoot: media } });
    browser = await launchMapBrowser();
    context = browser.context;
  });

  // A page left open goes on drawing beside the next tests' pages: each test closes its own.
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('loads with no console error and no request leaving 127.0.0.1, and draws the footprints (as points where too small to see)', async () => {
    const { page, errors, requests } = await open();
    const drawn = await renderedIds(page);
    const points = await renderedPoints(page);
    const ids = new Set(catalogue.features.map((f) => f.id));
    const shown = drawn.length + points.reduce((sum, p) => sum + p.count, 0);
    assert.ok(shown > catalogue.features.length / 2, `only ${shown} of ${catalogue.features.length} footprints drawn (${drawn.length} as polygons)`);
    assert.deepEqual([...drawn, ...points.map((p) => p.id)].filter((id) => !ids.has(id)), []);
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
    // The outlines follow the list: the matches' ids arrive, the map moves to them, their tiles are drawn.
    await page.waitForFunction(() => (globalThis as any).__map.queryRenderedFeatures({ layers: ['matches-line'] }).length > 0);
    const outlined = await renderedIds(page, undefined, 'matches-line');
    const matching = new Set(await apiIds(`q=${encodeURIComponent(street)}`));
    assert.ok(outlined.length > 0);
    assert.deepEqual(outlined.filter((id) => !matching.has(id)), []);
    const entry = page.locator(`#results-list .result[data-feature="${pictured.id}"]`);
    await entry.focus();
    await page.keyboard.press('Enter');
    await page.locator('#panel-title').waitFor();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'panel-title');
    assert.equal(await page.locator('#panel .facts dd').first().textContent(), pictured.address);
    await waitForMap(page);
    assert.match(await page.evaluate(() => (globalThis as any).location.hash), new RegExp(`feature=${pictured.id}(&|$)`));
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
    // The demo's pictures are drawn at a photograph's size (src/demo/pictures.ts).
    assert.deepEqual(await page.locator('#lightbox-img').evaluate((i: any) => [i.naturalWidth, i.naturalHeight]), [1200, 800]);
    assert.equal(decodeURIComponent(new URL(await page.locator('#lightbox-img').evaluate((i: any) => i.src)).pathname), `/media/${files[0]}`);
    await screenshot(page, 'map-desktop-panel.png');
    await page.keyboard.press('Escape');
    await page.locator('#lightbox').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#panel').isVisible(), true, 'Esc closes the picture first, then the panel');
    assert.deepEqual(errors, []);
  });

  pageTest('a document body\'s <script>, onerror= and javascript: link never run, a picture from elsewhere is never asked for (its text shown); its [^n] markers become linked footnotes', async () => {
    const { page, requests } = await open(`#feature=${hostile.id}`);
    const body = page.locator('#panel .document-body').filter({ hasText: 'Built in 1890.' });
    await body.waitFor();
    await page.locator('#panel a').filter({ hasText: 'a link' }).click();
    assert.equal(await page.evaluate(() => (globalThis as any).__hostile), undefined);
    const html = await body.innerHTML();
    assert.doesNotMatch(html, /<script|onerror|javascript:/i);
    assert.match(await body.innerText(), /A picture kept elsewhere/);
    assert.deepEqual(requests.filter((url) => url.includes('192.0.2.7')), []);
    const ref = body.locator('sup a.footnote-ref');
    assert.equal(await ref.textContent(), '1');
    const target = (await ref.getAttribute('href'))!.slice(1);
    assert.equal((await body.locator(`li#${target}`).textContent())!.replace('↩', '').trim(), 'Survey notebook, 1890.');
    assert.doesNotMatch(html, /\[\^1\]/);
  });

  pageTest('a panel with two documents with notes: axe finds no violation in it (each landmark named once)', async () => {
    const { page } = await open(`#feature=${noted.id}`);
    await page.locator('#panel .document-body').filter({ hasText: 'Rebuilt in 1921.' }).nth(1).waitFor();
    assert.ok(await page.locator('#panel .footnotes').count() >= 2, 'two lists of notes or more');
    // Evaluated through the browser's protocol, which the page's Content-Security-Policy does not govern.
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const result = await (globalThis as any).axe.run('#panel', { resultTypes: ['violations'] });
      return result.violations.map((v: any) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(violations, []);
  });

  pageTest('a shared URL restores the view and the selected feature; back and forward follow the selection', async () => {
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

  pageTest('on a phone-sized screen the map, the search and the panel fit the width', async () => {
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

  pageTest('failed and slow API answers are said plainly, and the page keeps working', async () => {
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

  test('a search with more matches than listed outlines every one drawn in the view, again as the view moves, and says so', async () => {
    const { page, errors } = await open('', WIDE_DESKTOP);
    await page.locator('#filters summary').click();
    await page.fill('input[name="year_from"]', '1700');
    const firstView = page.waitForResponse((r) => r.url().includes('/map/matches.json?'));
    await page.press('input[name="year_from"]', 'Enter');
    const expected = catalogue.features.filter((f) => f.current !== null && f.current >= 1700).map((f) => f.id);
    assert.ok(expected.length > 100 && expected.length < 1000, `${expected.length} matches`);
    await firstView;
    await page.locator('#results-heading', { hasText: new RegExp(`^${expected.length} matches, 100 listed; \\d+ in this view outlined on the map$`) }).waitFor();
    await page.locator('#filters summary').click();
    /** Every match drawn is outlined, and nothing else: beyond the 100 listed. */
    const assertOutlined = async () => {
      await waitForMap(page);
      const outlined = await renderedIds(page, undefined, 'matches-line');
      const drawn = await renderedIds(page);
      assert.deepEqual(outlined, drawn.filter((id) => expected.includes(id)));
      return outlined;
    };
    const before = await assertOutlined();
    assert.ok(before.length > 100, `${before.length} outlined`);
    // Close up on one match, then on another far from it: each view asks for its own matches.
    const matches = catalogue.features.filter((f) => expected.includes(f.id));
    const [first, second] = [matches[0]!, matches[matches.length - 1]!];
    for (const match of [first, second]) {
      const asked = page.waitForResponse((r) => r.url().includes('/map/matches.json?'));
      await page.evaluate((centre) => (globalThis as any).__map.jumpTo({ center: centre, zoom: 18 }), centreOf(match));
      await asked;
      const outlined = await assertOutlined();
      assert.ok(outlined.includes(match.id), `${match.id} outlined in its view`);
    }
    await screenshot(page, 'map-desktop-search-outlined.png');
    assert.deepEqual(errors, []);
  });

  test('a result shows every category of its feature and the words that matched, and where', async () => {
    const feature = catalogue.features.find((f) => f.categories.length > 1 && f.b_name && /^\p{L}{4,}/u.test(f.b_name))!;
    const word = feature.b_name!.split(/\s+/)[0]!.toLowerCase().slice(0, 5);
    const { page } = await open(`#q=${encodeURIComponent(word)}`);
    const entry = page.locator(`#results-list .result[data-feature="${feature.id}"]`);
    await entry.waitFor();
    const names = feature.categories.map((id) => catalogue.categories.find((c) => c.id === id)!.name);
    assert.equal(await entry.locator('.result-categories').textContent(), names.join(' · '));
    assert.match((await entry.locator('.result-why').textContent())!, new RegExp(`^Matched: “${word}” in [^;]*name “${escape(feature.b_name!)}”`));
  });

  pageTest('a shared #feature=N flies the map to the feature (motion not reduced)', async () => {
    const { page } = await open(`#feature=${pictured.id}`, DESKTOP, server.origin, true);
    assert.equal(await page.evaluate(() => (globalThis as any).matchMedia('(prefers-reduced-motion: reduce)').matches), false);
    await page.locator('#panel-title').waitFor();
    await page.waitForFunction(() => (globalThis as any).__map.getZoom() > 16 && !(globalThis as any).__map.isMoving());
    await waitForMap(page);
    const [lon, lat] = centreOf(pictured);
    const inView = await page.evaluate(([x, y]) => (globalThis as any).__map.getBounds().contains([x, y]), [lon, lat]);
    assert.equal(inView, true);
    assert.ok((await renderedIds(page, undefined, 'selected-fill')).includes(pictured.id));
  });

  pageTest('a search lives in the URL: the link of a search reproduces it', async () => {
    const { page } = await open();
    const street = pictured.street!;
    await page.fill('#q', street);
    await page.locator('#filters summary').click();
    await page.fill('input[name="year_to"]', '1950');
    await page.press('#q', 'Enter');
    await page.locator('#results:not([hidden]) #results-list li').first().waitFor();
    const listed = () => page.locator('#results-list .result').evaluateAll((buttons) => buttons.map((b: any) => Number(b.dataset.feature)));
    const first = await listed();
    await page.waitForFunction(() => /[#&]q=/.test((globalThis as any).location.hash));
    const hash = await page.evaluate(() => (globalThis as any).location.hash as string);
    const params = new URLSearchParams(hash.slice(1));
    assert.equal(params.get('q'), street);
    assert.equal(params.get('to'), '1950');
    const shared = await open(hash);
    await shared.page.locator('#results:not([hidden]) #results-list li').first().waitFor();
    assert.equal(await shared.page.inputValue('#q'), street);
    assert.equal(await shared.page.inputValue('input[name="year_to"]'), '1950');
    assert.deepEqual(await shared.page.locator('#results-list .result').evaluateAll((buttons) => buttons.map((b: any) => Number(b.dataset.feature))), first);
    assert.deepEqual(first, await apiIds(`q=${encodeURIComponent(street)}&year_range=-9999,1950`));
  });

  test('zoom buttons, a scale bar and a north arrow; street names and building numbers from the catalogue', async () => {
    const [lon, lat] = centreOf(pictured);
    const { page, errors, requests } = await open(`#map=17.5/${lat}/${lon}`);
    for (const control of ['.maplibregl-ctrl-zoom-in', '.maplibregl-ctrl-zoom-out', '.maplibregl-ctrl-compass', '.maplibregl-ctrl-scale']) {
      assert.equal(await page.locator(control).isVisible(), true, control);
    }
    assert.match((await page.locator('.maplibregl-ctrl-scale').textContent())!, /^\d+\s+m$/);
    await page.locator('.street-label', { hasText: pictured.street! }).first().waitFor();
    await page.locator('.building-label', { hasText: (pictured.b_number || pictured.b_name)! }).first().waitFor();
    await screenshot(page, 'map-desktop-z17.png');
    await page.locator('.maplibregl-ctrl-zoom-out').click();
    await page.waitForFunction(() => Math.abs((globalThis as any).__map.getZoom() - 16.5) < 1e-6);
    await waitForMap(page);
    assert.equal(await page.locator('.building-label').count(), 0, 'building labels only from zoom 17');
    assert.ok(await page.locator('.street-label', { hasText: pictured.street! }).count() > 0);
    assert.deepEqual(requests.filter((url) => new URL(url).hostname !== '127.0.0.1' && !url.startsWith('data:')), []);
    assert.deepEqual(errors, []);
  });

  /** A zoom-12 view: most footprints drawn (as points where too small), no street names. */
  async function zoom12(viewport: { width: number; height: number }, name: string): Promise<void> {
    const [lon, lat] = centreOf(pictured);
    const { page, errors } = await open(`#map=12/${lat}/${lon}`, viewport);
    const points = await renderedPoints(page);
    const shown = (await renderedIds(page)).length + points.reduce((sum, p) => sum + p.count, 0);
    assert.ok(shown > catalogue.features.length / 2, `only ${shown} of ${catalogue.features.length} footprints drawn at zoom 12`);
    assert.equal(await page.locator('.street-label').count(), 0, 'no street names at zoom 12');
    await screenshot(page, name);
    assert.deepEqual(errors, []);
  }

  test('a zoom-12 view on a desktop', () => zoom12(DESKTOP, 'map-desktop-z12.png'));

  // The same tiles at another size: the page's part.
  pageTest('on a phone, a zoom-12 view and a zoom-17 one with building numbers', async () => {
    await zoom12(PHONE, 'map-phone-z12.png');
    const [lon, lat] = centreOf(pictured);
    const { page } = await open(`#map=17/${lat}/${lon}`, PHONE);
    await page.locator('.building-label').first().waitFor();
    await screenshot(page, 'map-phone-z17.png');
  });

  pageTest('each legend swatch is its category\'s colour on the map and in its thumbnail; no two alike', async () => {
    const { page } = await open();
    const entries = await page.locator('#legend-list .legend-entry').evaluateAll(async (buttons) => Promise.all(buttons.map(async (b: any) => {
      const img = b.querySelector('img');
      if (!img.complete || img.naturalWidth === 0) await new Promise((resolve) => img.addEventListener('load', resolve, { once: true }));
      const canvas = (globalThis as any).document.createElement('canvas');
      [canvas.width, canvas.height] = [img.naturalWidth, img.naturalHeight];
      const context = canvas.getContext('2d');
      context.drawImage(img, 0, 0);
      const [r, g, bl] = context.getImageData(2, 2, 1, 1).data;
      const swatch = (globalThis as any).getComputedStyle(b.querySelector('.swatch')).backgroundColor;
      return { swatch, thumbnail: `rgb(${r}, ${g}, ${bl})`, size: `${img.naturalWidth}×${img.naturalHeight}` };
    })));
    assert.ok(entries.length > 10);
    for (const e of entries) assert.deepEqual({ thumbnail: e.thumbnail, size: e.size }, { thumbnail: e.swatch, size: '160×120' });
    assert.equal(new Set(entries.map((e) => e.swatch)).size, entries.length);
    const config = (await request(server.origin, '/map/config.json')).json();
    const fill = await page.evaluate(() => JSON.stringify((globalThis as any).__map.getPaintProperty('footprints-fill', 'fill-color')));
    for (const c of config.categories) assert.ok(fill.includes(`${c.id},"${c.colour}"`), `${c.name} drawn in ${c.colour}`);
  });

  pageTest('opening Filters moves nothing on a desktop; on a phone "Year from" and "to" share a row', async () => {
    const { page } = await open();
    const boxes = () => Promise.all(['.bar', '#map', '#q'].map(async (s) => JSON.stringify(await page.locator(s).boundingBox())));
    const closed = await boxes();
    await page.locator('#filters summary').click();
    await page.locator('input[name="year_from"]').waitFor();
    assert.deepEqual(await boxes(), closed);
    const phone = (await open('', PHONE)).page;
    await phone.locator('#filters summary').click();
    const [from, to] = await Promise.all(['year_from', 'year_to'].map(async (n) => (await phone.locator(`input[name="${n}"]`).boundingBox())!));
    assert.ok(Math.abs(from!.y - to!.y) < 2 && to!.x > from!.x + from!.width, `${JSON.stringify(from)} ${JSON.stringify(to)}`);
    assert.ok(to!.x + to!.width <= PHONE.width);
    assert.equal(await phone.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), PHONE.width);
  });

  pageTest('tiles failing with the database down are said in words, inside the sidebar, with no tile URL', async () => {
    const watched = await openWatchedPage(context, PHONE);
    pages.push(watched);
    const { page } = watched;
    await page.route('**/tiles/features/**', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"The catalogue database is unavailable; try again shortly."}' }));
    await page.goto(`${server.origin}/`);
    const message = page.locator('#status [data-topic="tiles"]');
    await message.waitFor();
    const text = (await message.textContent())!;
    assert.match(text, /^Part of the map could not be drawn: the database is unavailable for now\./);
    assert.doesNotMatch(text, /https?:|\/tiles\//);
    const fits = await message.evaluate((p: any) => p.scrollWidth <= p.clientWidth && p.getBoundingClientRect().right <= p.closest('.sidebar').getBoundingClientRect().right);
    assert.equal(fits, true);
  });

  // What the page is given for an empty catalogue is the HTTP suite's on both stores (http/map-page.test.ts).
  pageTest('an empty catalogue is said plainly, with no error', async () => {
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
