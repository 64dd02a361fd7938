// /api/docs/ in a real browser: Swagger UI, served by this server alone, renders the
// OpenAPI document and lists every one of its paths; nothing is fetched from elsewhere and
// the page's Content-Security-Policy is never violated.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const skip = browserSkipReason() ?? false;

describe('/api/docs/', { skip }, () => {
  let t: TestServer;
  let browser: Browser;
  before(async () => {
    t = await startTestServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('lists every path of the document, and loads nothing from anywhere else', async () => {
    const documentPaths = Object.keys((await request(t.origin, '/api/v1/openapi.json')).json().paths);
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${t.origin}/api/docs/`);
    await page.waitForSelector('.opblock-summary-path');
    const shown = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((n) => n.getAttribute('data-path')));
    assert.deepEqual([...new Set(shown)].sort(), [...documentPaths].sort());
    assert.match(String(await page.textContent('.info .title')), /heritage-api/);
    assert.ok(requested.some((url) => url.endsWith('/api/v1/openapi.json')), 'the document was fetched');
    // data: URLs are Swagger UI's inline icons, not requests to anywhere.
    for (const url of requested.filter((u) => !u.startsWith('data:'))) assert.equal(new URL(url).hostname, '127.0.0.1', url);
    assert.deepEqual(problems, []);
  });
});
