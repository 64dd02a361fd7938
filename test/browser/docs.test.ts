// /api/docs/ (and /ogc/docs/, the same page over /ogc/api) in a real browser: Swagger UI, served by this server alone, renders the
// OpenAPI document and lists every one of its paths; nothing is fetched from elsewhere and
// the page's Content-Security-Policy is never violated; "Try it out" on the features list
// sends no example as a value, so a newcomer's first request finds the whole catalogue.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import { browserSkipReason, launchWithProfile, type ProfileBrowser } from '../support/browser.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const skip = browserSkipReason() ?? false;

describe('the API reference pages', { skip }, () => {
  let t: TestServer;
  let browser: ProfileBrowser;
  // One context for the file's pages, with a profile: Swagger UI's 1.5 MB of script then
  // comes from its cache, compiled (launchWithProfile).
  let context: BrowserContext;
  before(async () => {
    t = await startTestServer();
    browser = await launchWithProfile([], {});
    context = browser.context;
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page that goes to `path` and waits for Swagger UI's list, keeping every request and every error. */
  async function reference(path: string, documentPath: string) {
    const documentPaths = Object.keys((await request(t.origin, documentPath)).json().paths);
    const page = await context.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${t.origin}${path}`);
    await page.waitForSelector('.opblock-summary-path');
    const shown = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((n) => n.getAttribute('data-path')));
    assert.deepEqual([...new Set(shown)].sort(), [...documentPaths].sort());
    /** Nothing fetched from elsewhere (data: URLs are Swagger UI's inline icons), no error. */
    const assertSelfContained = () => {
      for (const url of requested.filter((u) => !u.startsWith('data:'))) assert.equal(new URL(url).hostname, '127.0.0.1', url);
      assert.deepEqual(problems, []);
    };
    return { page, requested, assertSelfContained };
  }

  // One page for both, opened at the features list's operation (Swagger UI's deep link): each
  // page renders the whole document, some 3 s of Chromium's CPU.
  test('/api/docs/ lists every path of the document and loads nothing from anywhere else; Try it out, then Execute, on the features list: no example is filled in, and the answer holds the whole catalogue', async () => {
    const { page, requested, assertSelfContained } = await reference('/api/docs/#/features/getFeatures', '/api/v1/openapi.json');
    assert.match(String(await page.textContent('.info .title')), /heritage-api/);
    assert.ok(requested.some((url) => url.endsWith('/api/v1/openapi.json')), 'the document was fetched');
    assertSelfContained();
    const operation = page.locator('#operations-features-getFeatures');
    await operation.locator('.opblock-body').waitFor();
    await operation.locator('button.try-out__btn').click();
    const filled = await operation.locator('.parameters input[type=text]').evaluateAll((inputs) =>
      inputs.map((i) => [i.closest('tr')?.getAttribute('data-param-name'), (i as unknown as { value: string }).value]).filter(([, value]) => value !== ''),
    );
    // page_size shows its default, which finds the same records as no value.
    assert.deepEqual(filled, [['page_size', '20']]);
    await operation.locator('button.execute').waitFor({ state: 'visible' });
    const [answer] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/features/'),
      operation.locator('button.execute').click(),
    ]);
    const sent = new URL(answer.url());
    assert.deepEqual([...sent.searchParams.keys()], ['page_size']);
    const shown = operation.locator('.live-responses-table .response-col_description pre.microlight');
    await shown.first().waitFor();
    const expected = buildTestCatalogue().features.length;
    assert.ok(expected > 0);
    assert.match(String(await shown.first().textContent()), new RegExp(`"count": ${expected},`));
    assertSelfContained();
  });

  test('/ogc/docs/ lists every path of /ogc/api, loads nothing from elsewhere, and Try it out on the features items reaches the server below /ogc', async () => {
    const { page, requested, assertSelfContained } = await reference('/ogc/docs/#/features/getFeaturesItems', '/ogc/api');
    assert.ok(requested.some((url) => new URL(url).pathname === '/ogc/api'), 'the document was fetched');
    const operation = page.locator('#operations-features-getFeaturesItems');
    await operation.locator('.opblock-body').waitFor();
    await operation.locator('button.try-out__btn').click();
    // Execute appears once Try it out has taken; the answer is awaited with the click, never left pending.
    await operation.locator('button.execute').waitFor({ state: 'visible' });
    const [answer] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/ogc/collections/features/items'),
      operation.locator('button.execute').click(),
    ]);
    assert.equal(answer.status(), 200);
    assertSelfContained();
  });
});
