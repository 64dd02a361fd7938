// Every page for people in a real browser (Debian's Chromium), as issue 36 asks: axe finds no
// violation on any page (the map explorer with its panel open and both API references
// included), no page is wider than a 390 px screen, no page logs a console error, and
// Lighthouse scores the home, search, record, picture and document pages at least 95 in
// each of its four categories, on a desktop and on a phone. Screenshots of each page at
// both sizes go to SITE_SCREENS_DIR (default /tmp/site-screens; docs/screens/ is made with
// it). On both stores (test/postgres/ twin).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, WEBGL_FLAGS } from '../support/browser.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { freePort } from '../support/free-port.js';
import { ensureWebBuilt, writeCatalogueMedia } from '../support/map-page.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const SCREENS = process.env.SITE_SCREENS_DIR ?? '/tmp/site-screens';
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** Every kind of page: its name (the screenshot's), its path, and what to wait for. */
const PAGES: readonly { name: string; path: string; map?: boolean; missing?: boolean }[] = [
  { name: 'home', path: '/about/' },
  { name: 'search', path: '/search/?q=osborn' },
  { name: 'record', path: '/places/1/' },
  { name: 'picture', path: '/pictures/7/' },
  { name: 'document', path: '/documents/971/' },
  { name: 'video', path: '/videos/4/' },
  { name: 'ogc-landing', path: '/ogc/' },
  { name: 'ogc-collections', path: '/ogc/collections' },
  { name: 'ogc-collection', path: '/ogc/collections/features' },
  { name: 'ogc-items', path: '/ogc/collections/features/items' },
  { name: 'ogc-conformance', path: '/ogc/conformance' },
  { name: 'not-found', path: '/no/such/page', missing: true },
  { name: 'api-reference', path: '/api/docs/' },
  { name: 'ogc-api-reference', path: '/ogc/docs/' },
  { name: 'map-with-panel', path: '/#feature=1', map: true },
];

/** The pages Lighthouse scores. */
const SCORED = ['/about/', '/search/?q=osborn', '/places/1/', '/pictures/7/', '/documents/971/'];

const skip = browserSkipReason();

describe('the site in a real browser: axe, 390 px, the console, Lighthouse', { skip }, () => {
  const cat = buildTestCatalogue();
  let server: TestServer;
  let browser: Browser;
  let debuggingPort: number;
  let context: BrowserContext;
  let media: string;

  before(async () => {
    media = temporaryDir();
    writeCatalogueMedia(cat, media);
    server = await startTestServer({ catalogue: cat, settings: { mediaRoot: media } });
    await ensureWebBuilt();
    debuggingPort = await freePort();
    browser = await launchBrowser([...WEBGL_FLAGS, `--remote-debugging-port=${debuggingPort}`]);
    // axe is added to each page as a script, which the pages' CSP would refuse.
    context = await browser.newContext({ bypassCSP: true, deviceScaleFactor: 1, reducedMotion: 'reduce' });
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  async function open(page: Page, target: (typeof PAGES)[number]): Promise<string[]> {
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`); });
    page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
    const response = await page.goto(`${server.origin}${target.path}`, { waitUntil: 'load' });
    assert.equal(response?.status(), target.missing ? 404 : 200, target.path);
    if (target.map) {
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      await page.locator('#panel-title').waitFor({ timeout: 30_000 });
    }
    if (target.path.endsWith('/docs/')) await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    return errors;
  }

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test(`${size}: no axe violation, nothing wider than the screen, no console error, a screenshot`, async () => {
      const problems: string[] = [];
      for (const target of PAGES) {
        const page = await context.newPage();
        await page.setViewportSize(viewport);
        const errors = await open(page, target);
        // A missing page's own 404 is the one error its console shows (Chromium logs every failed load).
        const real = target.missing ? errors.filter((e) => !e.includes('404')) : errors;
        if (real.length > 0) problems.push(`${target.path}: console ${real.join('; ')}`);
        const wide = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
        if (wide > viewport.width) problems.push(`${target.path}: ${wide} px wide at ${viewport.width}`);
        await page.addScriptTag({ content: AXE_SOURCE });
        const violations = await page.evaluate(async () => {
          const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
          return result.violations.map((v: any) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 2).map((n: any) => n.target.join(' ')).join(', ')}`);
        });
        for (const v of violations) problems.push(`${target.path}: axe ${v}`);
        await page.screenshot({ path: path.join(SCREENS, `${target.name}-${size}.jpeg`), type: 'jpeg', quality: 70, fullPage: !target.map });
        await page.close();
      }
      assert.deepEqual(problems, []);
    });
  }

  test('Lighthouse: at least 95 in performance, accessibility, best practices and SEO, on a desktop and a phone', { timeout: 600_000 }, async () => {
    const { default: lighthouse } = await import('lighthouse');
    const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
    const below: string[] = [];
    const scores: string[] = [];
    for (const [form, config] of [['mobile', undefined], ['desktop', desktopConfig]] as const) {
      for (const path of SCORED) {
        const result = await lighthouse(`${server.origin}${path}`, { port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] }, config);
        const lhr = result!.lhr;
        const line = Object.values(lhr.categories).map((c) => `${c.id} ${Math.round((c.score ?? 0) * 100)}`).join(', ');
        scores.push(`${form} ${path}: ${line}`);
        for (const c of Object.values(lhr.categories)) {
          if ((c.score ?? 0) < 0.95) {
            const failing = c.auditRefs.filter((r) => r.weight > 0 && (lhr.audits[r.id]?.score ?? 1) < 1).map((r) => `${r.id} ${lhr.audits[r.id]?.displayValue ?? lhr.audits[r.id]?.score}`);
            below.push(`${form} ${path}: ${c.id} ${Math.round((c.score ?? 0) * 100)} (${failing.join('; ')})`);
          }
        }
      }
    }
    fs.writeFileSync(path.join(SCREENS, 'lighthouse.txt'), `${scores.join('\n')}\n`);
    assert.deepEqual(below, [], scores.join('\n'));
  });
});
