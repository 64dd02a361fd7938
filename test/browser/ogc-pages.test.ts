// A building's record page in a real browser (Debian's Chromium), with JavaScript off and on:
// its content and JSON-LD as a reader and a search engine see them, no request leaving the
// server, no script of a document ever running (the page allows none), and screenshots on a
// desktop and a phone, saved to OGC_SCREENS_DIR (default /tmp/ogc-screens/, outside git).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import type { Catalogue } from '../../src/catalogue/format.js';
import { browserSkipReason, launchBrowser, WEBGL_FLAGS } from '../support/browser.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { ensureWebBuilt, newMapContext, openWatchedPage, waitForMap, writeCatalogueMedia } from '../support/map-page.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const SCREENS = process.env.OGC_SCREENS_DIR ?? '/tmp/ogc-screens';
const HOSTILE = '<p>Text <img src=x onerror="window.__hostile=\'onerror\'"><script>window.__hostile=\'script\'</script>'
  + '<a href="javascript:window.__hostile=\'link\'">a link</a></p>';

function catalogue(): Catalogue {
  const c = buildTestCatalogue();
  c.documents.push({ id: 990, feature: 1, author: 2, title: 'A hostile body', body: HOSTILE, created: '2017-01-01', last_edited: '2017-01-02', published: true } as Catalogue['documents'][number]);
  return c;
}

const skip = browserSkipReason();

describe('a record page in a browser', { skip }, () => {
  const cat = catalogue();
  let server: TestServer;
  let browser: Browser;
  /**
   * A context with JavaScript off and one with it on, each shared by the file's pages of that
   * kind (a viewport is the page's): a context of their own made each page start cold.
   */
  const contexts = new Map<boolean, BrowserContext>();
  const contextWith = async (javaScript: boolean) => {
    if (!contexts.has(javaScript)) contexts.set(javaScript, await browser.newContext({ javaScriptEnabled: javaScript, deviceScaleFactor: 1 }));
    return contexts.get(javaScript)!;
  };
  const newPage = async (javaScript: boolean, viewport: { width: number; height: number }) => {
    const page = await (await contextWith(javaScript)).newPage();
    await page.setViewportSize(viewport);
    return page;
  };

  let media: string;

  before(async () => {
    media = temporaryDir();
    writeCatalogueMedia(cat, media);
    server = await startTestServer({ catalogue: cat, settings: { mediaRoot: media } });
    // WebGL on for the map explorer the last test opens: one browser for the file.
    browser = await launchBrowser(WEBGL_FLAGS);
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  for (const javaScript of [false, true]) {
    test(`JavaScript ${javaScript ? 'on' : 'off'}: content, JSON-LD, nothing from elsewhere, no document script runs`, async () => {
      for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
        const page = await newPage(javaScript, viewport);
        const requests: string[] = [];
        const errors: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        page.on('pageerror', (e) => errors.push(e.message));
        // A browser asks without f: Accept chooses the page.
        const response = await page.goto(`${server.origin}/ogc/collections/features/items/1`, { waitUntil: 'load' });
        assert.equal(response?.headers()['content-type'], 'text/html; charset=utf-8');
        const f1 = cat.features[0]!;
        assert.equal(await page.locator('h1').innerText(), f1.b_name);
        assert.ok((await page.locator('main').innerText()).includes(f1.address));
        assert.equal(await page.locator('.gallery img').getAttribute('alt'), cat.images[0]!.title);
        // Lazy: it loads once scrolled to (on a phone it is below the fold).
        await page.locator('.gallery img').scrollIntoViewIfNeeded();
        const width = await page.locator('.gallery img').evaluate((img: any) => (img.complete
          ? img.naturalWidth
          : new Promise((resolve) => { img.addEventListener('load', () => resolve(img.naturalWidth)); img.addEventListener('error', () => resolve(0)); })));
        assert.ok(Number(width) > 0, 'the picture loads');
        const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!)['@graph'][0];
        assert.equal(ld['@type'], 'LandmarksOrHistoricalBuildings');
        assert.equal(ld.name, f1.b_name);
        assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
        assert.equal(await page.locator('[onerror], main script').count(), 0);
        if (javaScript) assert.equal(await page.evaluate(() => (globalThis as any).__hostile), undefined, 'no script of a document ran');
        // The map explorer link, centred on it.
        assert.match((await page.getByRole('link', { name: 'See it on the map explorer' }).getAttribute('href'))!, /\/#map=18\/[\d.-]+\/[\d.-]+&feature=1$/);
        assert.deepEqual(requests.filter((u) => new URL(u).origin !== server.origin), [], 'no request leaves the server');
        assert.deepEqual(errors, []);
        await page.screenshot({ path: path.join(SCREENS, `record-${name}-js-${javaScript ? 'on' : 'off'}.png`), fullPage: name === 'phone' });
        await page.close();
      }
    });
  }

  test('the items and collection pages, readable without JavaScript (screenshots)', async () => {
    const page = await newPage(false, { width: 1280, height: 900 });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${server.origin}/ogc/collections/features/items?limit=10`);
    assert.equal(await page.locator('tbody tr').count(), 10);
    assert.equal(await page.locator('.minimap svg path').count(), 10, 'each footprint of the page drawn');
    assert.equal(await page.locator('.minimap svg a').count(), 0, 'no link inside the picture (the table links them)');
    await page.screenshot({ path: path.join(SCREENS, 'items-desktop.png'), fullPage: true });
    await page.getByRole('link', { name: 'Next page →' }).first().click();
    assert.match(page.url(), /after=/);
    assert.equal(await page.locator('tbody tr').count(), 10);
    await page.goto(`${server.origin}/ogc/collections/features`);
    assert.equal(await page.locator('h1').innerText(), 'Buildings and places');
    await page.screenshot({ path: path.join(SCREENS, 'collection-desktop.png'), fullPage: true });
    assert.deepEqual(requests.filter((u) => new URL(u).origin !== server.origin), []);
    await page.close();
  });

  test('the home page\'s search box searches (the pages\' CSP lets their own forms go to this server)', async () => {
    const page = await newPage(false, { width: 1280, height: 900 });
    const refused: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') refused.push(m.text()); });
    await page.goto(`${server.origin}/about/`);
    await page.getByLabel('Search the catalogue').fill('osborn');
    await Promise.all([page.waitForURL(/\/search\/\?q=osborn$/), page.getByRole('button', { name: 'Search' }).click()]);
    const expected = ((await (await fetch(`${server.origin}/api/v1/features/?q=osborn`)).json()) as { count: number }).count;
    assert.ok(expected > 0);
    assert.equal(await page.locator('li.result').count(), Math.min(expected, 20));
    assert.deepEqual(refused, []);
    await page.close();
  });

  test("the record page's map link opens the map explorer on it, whose panel links back to the record page", async () => {
    // Feature 5: not the one with the hostile document (the map page's own tests cover that).
    const five = cat.features.find((f) => f.id === 5)!;
    await ensureWebBuilt();
    const record = await newPage(true, { width: 1280, height: 900 });
    await record.goto(`${server.origin}/ogc/collections/features/items/5`);
    const mapContext = await newMapContext(browser);
    const watched = await openWatchedPage(mapContext, { width: 1280, height: 900 });
    await watched.page.goto((await record.getByRole('link', { name: 'See it on the map explorer' }).getAttribute('href'))!);
    await waitForMap(watched.page);
    await watched.page.locator('#panel-title').waitFor();
    assert.equal(await watched.page.locator('#panel .facts dd').first().textContent(), five.address);
    const back = watched.page.locator('#panel a.record-link');
    assert.equal(await back.getAttribute('href'), '/places/5/');
    await back.click();
    await watched.page.waitForURL(/\/places\/5\/$/);
    assert.equal(await watched.page.locator('h1').innerText(), five.b_name);
    assert.deepEqual(watched.errors, []);
    await mapContext.close();
    await record.close();
  });
});
