// Deep zoom in a real browser (issue 49), on pictures made here by sharp (sizes and formats
// unlike the demo's, one of 4000 × 3000 for several levels of tiles): the comparison page runs
// Mirador 4 on the building's manifest from this server, a window per picture, and zooming in
// fetches tiles at full or half resolution; the picture page's OpenSeadragon opens the picture's
// info.json and fetches its tiles, and without JavaScript the plain picture shows. No page logs
// a console error, breaks its Content-Security-Policy, fails a request or asks another host.
// Screenshots go to IIIF_SCREENS_DIR (default /tmp/iiif-screens). On both stores (test/postgres/ twin).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import sharp from 'sharp';
import type { Catalogue } from '../../src/catalogue/format.js';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { ensureWebBuilt } from '../support/map-page.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const SCREENS = process.env.IIIF_SCREENS_DIR ?? '/tmp/iiif-screens';
const skip = browserSkipReason();

/** The building whose pictures these are (it has none in the test catalogue), and one left without any. */
const BUILDING = 13;
const BARE = 15;
const PICTURES = [
  { id: 501, title: 'Elevation drawing, 1898', file: 'drawings/elevation 1898.jpg', width: 4000, height: 3000, format: 'jpeg' },
  { id: 502, title: 'Shopfront, c.1950', file: 'photos/shopfront.png', width: 1400, height: 2100, format: 'png' },
  { id: 503, title: 'Roofline from the east', file: 'photos/roofline.jpg', width: 2600, height: 1100, format: 'jpeg' },
] as const;
const LARGE = PICTURES[0];
const HIDDEN = { id: 504, title: 'Not yet published', file: 'photos/hidden.jpg' };

function catalogue(): Catalogue {
  const c = buildTestCatalogue();
  const building = c.features.find((f) => f.id === BUILDING);
  assert.ok(building !== undefined && c.images.every((i) => i.feature !== BUILDING && i.feature !== BARE));
  // A name of its own: the manifest's label, and each Mirador window's title.
  building.b_name = 'The Old Dispensary';
  const images = PICTURES.map((p, i) => ({ id: p.id, feature: BUILDING, author: i % 2 === 0 ? 2 : 5, title: p.title, file: p.file, description: '', copyright: false, created: `19${50 + i}-01-01`, published: true }));
  c.images.push(...images, { ...HIDDEN, feature: BUILDING, author: 2, description: '', copyright: false, created: null, published: false });
  return c;
}

/** A grid of coloured cells, each unlike its neighbours, so that every tile differs. */
async function drawPicture(root: string, p: { file: string; width: number; height: number; format: string }): Promise<void> {
  const [columns, rows] = [10, 8];
  const [w, h] = [p.width / columns, p.height / rows];
  const cells = Array.from({ length: columns * rows }, (_, k) => {
    const [i, j] = [k % columns, Math.floor(k / columns)];
    return `<rect x="${i * w}" y="${j * h}" width="${w}" height="${h}" fill="hsl(${(i * 37 + j * 71) % 360},70%,${35 + ((i + j) % 3) * 15}%)"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${p.width}" height="${p.height}">${cells.join('')}</svg>`;
  const target = path.join(root, p.file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const image = sharp(Buffer.from(svg));
  await (p.format === 'png' ? image.png() : image.jpeg({ quality: 90 })).toFile(target);
}

/** An Image API tile request's parts: /iiif/3/{id}/{x},{y},{w},{h}/{w},{h}/0/default.jpg. */
const TILE = /\/iiif\/3\/(\d+)\/(\d+),(\d+),(\d+),(\d+)\/(\d+),(\d+)\/0\/default\.jpg$/;

interface Tile { id: number; x: number; y: number; w: number; h: number; width: number; height: number; scale: number }

function tileOf(url: string): Tile | null {
  const m = TILE.exec(new URL(url).pathname);
  if (m === null) return null;
  const [id, x, y, w, h, width, height] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  // The scale factor the viewer asked for: region over size (an edge tile's size is rounded up).
  return { id, x, y, w, h, width, height, scale: Math.round(w / width) };
}

/** What a page did: its console errors, policy violations, failed requests, requests elsewhere, and every answer. */
interface Watched {
  page: Page;
  problems: string[];
  responses: Response[];
}

async function watch(context: BrowserContext, origin: string): Promise<Watched> {
  const page = await context.newPage();
  const problems: string[] = [];
  const responses: Response[] = [];
  // A violation is logged to the console by Chromium too; the event names the directive (with scripts on).
  await page.addInitScript(() => {
    const w = globalThis as any;
    w.document.addEventListener('securitypolicyviolation', (e: any) => w.console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('request', (r) => { if (!r.url().startsWith(`${origin}/`) && !/^(data|blob):/.test(r.url())) problems.push(`elsewhere: ${r.url()}`); });
  page.on('response', (r) => {
    responses.push(r);
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
  });
  return { page, problems, responses };
}

/** The next tile of a picture answered 200 at scale factor 1 or 2 (asked for before what makes it). */
const closeTile = (page: Page, id: number) => page.waitForResponse((r) => {
  const tile = tileOf(r.url());
  return tile !== null && tile.id === id && tile.scale <= 2 && r.status() === 200;
}, { timeout: 60_000 });

/** A tile's pixels against the same region cut from the source by sharp here: the mean of each channel within JPEG's error. */
async function assertTilePixels(root: string, tile: Tile, bytes: Buffer): Promise<void> {
  const meta = await sharp(bytes).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', tile.width, tile.height]);
  // stats() reads a pipeline's input: the cut is made first.
  const cut = await sharp(path.join(root, LARGE.file)).extract({ left: tile.x, top: tile.y, width: tile.w, height: tile.h }).resize(tile.width, tile.height).png().toBuffer();
  const expected = await sharp(cut).stats();
  const got = await sharp(bytes).stats();
  for (const [i, channel] of expected.channels.slice(0, 3).entries()) {
    assert.ok(Math.abs(channel.mean - got.channels[i]!.mean) < 4, `channel ${i}: ${got.channels[i]!.mean} for ${channel.mean} (${JSON.stringify(tile)})`);
  }
}

describe('deep zoom: Mirador on the comparison page, OpenSeadragon on the picture page', { skip }, () => {
  const cat = catalogue();
  let server: TestServer;
  let browser: Browser;
  let scripted: BrowserContext;
  let plain: BrowserContext;
  let media: string;

  before(async () => {
    media = temporaryDir();
    await Promise.all(PICTURES.map((p) => drawPicture(media, p)));
    await drawPicture(media, { ...HIDDEN, width: 640, height: 480, format: 'jpeg' });
    // Built before the server starts: it serves /iiif/viewer/ from the build it finds.
    await ensureWebBuilt();
    server = await startTestServer({ catalogue: cat, settings: { mediaRoot: media } });
    browser = await launchBrowser();
    scripted = await browser.newContext({ deviceScaleFactor: 1, reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
    plain = await browser.newContext({ javaScriptEnabled: false, deviceScaleFactor: 1, viewport: { width: 1280, height: 900 } });
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  after(async () => {
    await scripted?.close();
    await plain?.close();
    await browser?.close();
    await server?.close();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('the comparison page: Mirador loads the building\'s manifest from this server, a window per picture, and zooming in fetches tiles', async () => {
    const { page, problems, responses } = await watch(scripted, server.origin);
    try {
      // Each picture drawn in its window: an image of it answered (asked for before the page opens).
      const drawn = PICTURES.map((p) => page.waitForResponse((r) => r.url().startsWith(`${server.origin}/iiif/3/${p.id}/`) && r.url().endsWith('/default.jpg') && r.status() === 200, { timeout: 60_000 }));
      const response = await page.goto(`${server.origin}/iiif/places/${BUILDING}/compare/`, { waitUntil: 'load' });
      assert.equal(response?.status(), 200);
      await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('.mirador-window section.mirador-osd-container[aria-label]').length === n, PICTURES.length, { timeout: 60_000 });
      await Promise.all(drawn);
      const windows = await page.$$eval('.mirador-window', (all) => all.map((w: any) => ({
        label: w.getAttribute('aria-label'),
        title: w.querySelector('h2')?.textContent ?? null,
        item: w.querySelector('section.mirador-osd-container')?.getAttribute('aria-label') ?? null,
      })));
      assert.equal(windows.length, PICTURES.length, 'a window per picture, the unpublished one left out');
      // Each window shows its own picture, titled and named by it.
      for (const w of windows) assert.deepEqual([w.label, w.item], [`Window: ${w.title}`, `Item: ${w.title}`]);
      assert.deepEqual(windows.map((w) => w.title).sort(), PICTURES.map((p) => p.title).sort());
      // Mirador asks for the manifest for each of its windows.
      const manifests = responses.filter((r) => r.url().includes('/manifest.json'));
      assert.ok(manifests.length > 0);
      for (const r of manifests) assert.deepEqual([r.url(), r.status()], [`${server.origin}/iiif/places/${BUILDING}/manifest.json`, 200], 'the building\'s manifest, from this server');
      for (const p of PICTURES) assert.ok(responses.some((r) => r.url() === `${server.origin}/iiif/3/${p.id}/info.json` && r.status() === 200), `${p.id}: its info.json`);

      // The mouse wheel over the large picture's window zooms it in.
      const large = page.locator(`section.mirador-osd-container[aria-label="Item: ${LARGE.title}"]`);
      const box = await large.boundingBox();
      assert.ok(box !== null);
      const close = closeTile(page, LARGE.id);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 16; i++) await page.mouse.wheel(0, -300);
      const tile = await close;
      await assertTilePixels(media, tileOf(tile.url())!, await tile.body());
      await page.screenshot({ path: path.join(SCREENS, 'compare.jpeg'), type: 'jpeg', quality: 70 });
      const tiles = responses.map((r) => tileOf(r.url())).filter((t) => t !== null);
      assert.ok(tiles.some((t) => t.id === LARGE.id && t.scale <= 2), 'a tile at full or half resolution');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  test('the picture page: OpenSeadragon opens its info.json, fetches tiles, and zooms in with its buttons', async () => {
    const { page, problems, responses } = await watch(scripted, server.origin);
    try {
      const firstTile = page.waitForResponse((r) => tileOf(r.url())?.id === LARGE.id && r.status() === 200, { timeout: 60_000 });
      const response = await page.goto(`${server.origin}/pictures/${LARGE.id}/`, { waitUntil: 'load' });
      assert.equal(response?.status(), 200);
      const headers = response!.headers();
      assert.match(headers['content-security-policy']!, /script-src 'self';/);
      await page.locator('.zoom-open .zoom-viewer canvas').waitFor({ timeout: 60_000 });
      await firstTile;
      assert.ok(responses.some((r) => r.url() === `${server.origin}/iiif/3/${LARGE.id}/info.json` && r.status() === 200));
      // The viewer is named, and the plain picture under it stays in the page, out of the keyboard's way.
      assert.equal(await page.getByRole('region', { name: `${LARGE.title}: the picture to zoom into` }).count(), 1);
      assert.equal(await page.locator('figure.picture a[inert] img').count(), 1);
      const close = closeTile(page, LARGE.id);
      for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      const tile = await close;
      await assertTilePixels(media, tileOf(tile.url())!, await tile.body());
      await page.screenshot({ path: path.join(SCREENS, 'picture-zoomed.jpeg'), type: 'jpeg', quality: 70 });
      const tiles = responses.map((r) => tileOf(r.url())).filter((t) => t !== null);
      assert.ok(tiles.length > 1 && tiles.every((t) => t.id === LARGE.id));
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  test('the picture page without JavaScript: the plain picture, no viewer, no tile', async () => {
    const { page, problems, responses } = await watch(plain, server.origin);
    try {
      const response = await page.goto(`${server.origin}/pictures/${PICTURES[1].id}/`, { waitUntil: 'load' });
      assert.equal(response?.status(), 200);
      const shown = await page.locator('figure.picture img').evaluate((img: any) => ({ complete: img.complete, width: img.naturalWidth, height: img.naturalHeight }));
      assert.deepEqual(shown, { complete: true, width: PICTURES[1].width, height: PICTURES[1].height });
      assert.equal(await page.locator('.zoom-viewer').count(), 0);
      assert.ok(!responses.some((r) => r.url().includes('/iiif/3/')), 'no request of the image service');
      await page.screenshot({ path: path.join(SCREENS, 'picture-plain.jpeg'), type: 'jpeg', quality: 70 });
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  test('the record page links its pictures side by side; the comparison page is 404 for a building without pictures', async () => {
    const { page, problems } = await watch(plain, server.origin);
    try {
      await page.goto(`${server.origin}/places/${BUILDING}/`, { waitUntil: 'load' });
      await Promise.all([page.waitForURL(`${server.origin}/iiif/places/${BUILDING}/compare/`), page.getByRole('link', { name: 'Compare its pictures side by side' }).click()]);
      // Without scripts the comparison page lists the pictures, each to its page.
      const listed = await page.locator('[data-compare-fallback] a').evaluateAll((links: any[]) => links.map((a) => [a.textContent, a.href]));
      assert.deepEqual(listed, PICTURES.map((p) => [p.title, `${server.origin}/pictures/${p.id}/`]));
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
    for (const id of [BARE, 999_999]) {
      const missing = await server.request(`/iiif/places/${id}/compare/`, { headers: { accept: 'text/html' } });
      assert.equal(missing.status, 404, `${id}`);
    }
  });

  test('the viewers\' files: from this server, hashed and kept a year, compressed', async () => {
    const html = (await server.request(`/iiif/places/${BUILDING}/compare/`)).text;
    const scripts = [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
    assert.equal(scripts.length, 1, 'Mirador, bundled');
    for (const src of scripts) {
      assert.ok(src.startsWith(`${server.origin}/iiif/viewer/`), src);
      const answer = await server.request(new URL(src).pathname, { headers: { 'accept-encoding': 'br' } });
      assert.equal(answer.status, 200, src);
      assert.match(String(answer.headers['cache-control']), /max-age=31536000.*immutable|immutable.*max-age=31536000/);
      assert.equal(answer.headers['content-encoding'], 'br');
      assert.match(String(answer.headers['content-type']), /javascript/);
    }
  });
});
