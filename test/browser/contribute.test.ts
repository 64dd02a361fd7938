// The contributor's whole path in a real browser (Debian's Chromium, JavaScript off: the forms
// need none), on either store (PostgreSQL: the twin in test/postgres/): sign up, open a
// building's page, send a phone's JPEG (EXIF GPS, turned), see it waiting on the account
// page; an editor signs in, opens the queue and the review, approves; the picture is then on
// the building's page, in /api/v1/images/, in the building's count, in the OGC items and the
// GeoPackage download, and the file served carries no EXIF. Then an account's own management:
// its sessions listed, its password changed (the other session ends), an editor's reset link
// used once (every session ends). And issue 47's contributor's way: back to the form after
// signing up or in (next=), a preview, the thanks, their own contribution corrected and
// withdrawn. axe finds no violation on any page of the walks. Screenshots of each page go to
// CONTRIBUTE_SCREENS_DIR (default /tmp/contribute-screens/, outside git; docs/screens/ holds a set).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { checkPage } from '../support/page-check.js';
import { writeCatalogueMedia } from '../support/map-page.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const SCREENS = process.env.CONTRIBUTE_SCREENS_DIR ?? '/tmp/contribute-screens';
const PASSWORD = 'a long walk down Brick Lane';
const FEATURE = 1;
const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const skip = browserSkipReason();

async function phoneJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: '#b85c38' } }).jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 31/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 4/1 0/1' } })
    .toBuffer();
}

describe('contributing in a browser', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let dir: string;

  /** Every page of the walk: a screenshot, and axe's violations collected (test/support/page-check.ts). */
  const violations: string[] = [];
  const shot = async (page: Page, name: string) => {
    violations.push(...await checkPage(browser, page, name, { screens: SCREENS }));
  };
  const json = async (p: string) => {
    const answer = await server.request(p);
    assert.equal(answer.status, 200, p);
    return answer.json();
  };

  before(async () => {
    dir = temporaryDir();
    const media = path.join(dir, 'media');
    fs.mkdirSync(media);
    const catalogue = buildTestCatalogue();
    writeCatalogueMedia(catalogue, media);
    server = await startTestServer({ catalogue, settings: { contributions: '1', mediaRoot: media } });
    const editor = await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...server.dbArgs], { input: `${PASSWORD}\n` });
    assert.equal(editor.code, 0, editor.stderr);
    browser = await launchBrowser();
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('sign up, send a picture, an editor approves it: published everywhere, without its EXIF', async () => {
    const countBefore = (await json(`/api/v1/features/${FEATURE}/`)).properties.count as number;
    const imagesBefore = (await json('/api/v1/images/')).count as number;

    const contributor = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await contributor.setViewportSize({ width: 1100, height: 900 });
    await contributor.goto(`${server.origin}/account/signup`);
    await contributor.fill('#username', 'rosa-local');
    await contributor.fill('#password', PASSWORD);
    await shot(contributor, 'contribute-signup');
    await Promise.all([contributor.waitForURL(`${server.origin}/account/`), contributor.click('button[type=submit]')]);

    await contributor.goto(`${server.origin}/places/${FEATURE}/`);
    await Promise.all([contributor.waitForURL(`${server.origin}/contribute/${FEATURE}/image`), contributor.click('text=Add a picture')]);
    await contributor.setInputFiles('#file', { name: 'IMG_0042.jpg', mimeType: 'image/jpeg', buffer: await phoneJpeg() });
    await contributor.fill('#title', 'The front from Osborn Street');
    await contributor.fill('#description', 'Taken on a walk in 2024.');
    await shot(contributor, 'contribute-picture-form');
    await Promise.all([contributor.waitForURL(/\/account\/contributions\/\d+\?done=sent$/), contributor.click('text=Send for review')]);
    await contributor.goto(`${server.origin}/account/`);
    assert.ok((await contributor.textContent('ul.contributions'))!.includes('waiting for an editor'));
    await shot(contributor, 'contribute-account-pending');
    assert.equal((await json('/api/v1/images/')).count, imagesBefore, 'nothing public yet');

    const editor = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await editor.setViewportSize({ width: 1100, height: 900 });
    await editor.goto(`${server.origin}/account/signin`);
    await editor.fill('#username', 'ed-editor');
    await editor.fill('#password', PASSWORD);
    await Promise.all([editor.waitForURL(`${server.origin}/account/`), editor.click('button[type=submit]')]);
    await editor.goto(`${server.origin}/moderate/`);
    await shot(editor, 'contribute-queue');
    await Promise.all([editor.waitForURL(/\/moderate\/\d+$/), editor.click('text=The front from Osborn Street')]);
    // The waiting picture is shown to the editor, from the editor's own route.
    const shown = await editor.locator('figure.picture img').evaluate((img: any) => ({ complete: img.complete, width: img.naturalWidth, height: img.naturalHeight }));
    assert.deepEqual(shown, { complete: true, width: 600, height: 900 }, 'upright in the preview');
    await shot(editor, 'contribute-review');
    await Promise.all([editor.waitForURL(/\/pictures\/\d+\/$/), editor.click('text=Approve and publish')]);
    await shot(editor, 'contribute-published');
    const recordId = Number(/\/pictures\/(\d+)\/$/.exec(editor.url())![1]);

    // Everywhere public, at once.
    const record = await json(`/api/v1/images/${recordId}/`);
    assert.equal(record.author.username, 'rosa-local');
    assert.equal((await json('/api/v1/images/')).count, imagesBefore + 1);
    assert.equal((await json(`/api/v1/features/${FEATURE}/`)).properties.count, countBefore + 1);
    const items = await json(`/ogc/collections/images/items?f=json&limit=1000`);
    assert.ok(items.features.some((f: { id: number }) => f.id === recordId), 'in the OGC items');
    // A new visitor (the contributor's own browser keeps its copy for CACHE_CONTROL's 60 s).
    const visitor = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await visitor.goto(`${server.origin}/places/${FEATURE}/`);
    const page = await visitor.content();
    assert.ok(page.includes('The front from Osborn Street'), page.slice(0, 3000));
    const gpkg = await server.request('/ogc/collections/images/items?f=gpkg');
    assert.equal(gpkg.status, 200);
    const file = path.join(dir, 'images.gpkg');
    fs.writeFileSync(file, gpkg.bytes);
    const db = new Database(file, { readonly: true });
    try {
      const row = db.prepare('SELECT title FROM images WHERE fid = ?').get(recordId) as { title: string } | undefined;
      assert.equal(row?.title, 'The front from Osborn Street', 'in the GeoPackage');
    } finally {
      db.close();
    }
    const served = await server.request(new URL(record.file).pathname);
    assert.equal(served.status, 200);
    assert.ok(!served.bytes.includes(EXIF_HEADER), 'no EXIF in the file served');
    assert.deepEqual([(await sharp(served.bytes).metadata()).width, (await sharp(served.bytes).metadata()).height], [600, 900]);
    assert.deepEqual(violations, [], 'axe on every page of the walk');
  });

  test('a contributor\'s way (issue 47): signed out, a form leads to signing up or in and back to it; writing previewed, sent with thanks, opened, corrected and withdrawn', async () => {
    violations.length = 0;
    const context = async () => {
      const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      await page.setViewportSize({ width: 1100, height: 900 });
      return page;
    };
    const form = `${server.origin}/contribute/${FEATURE}/document`;
    const lena = await context();
    await lena.goto(`${server.origin}/places/${FEATURE}/`);
    assert.equal(await lena.getAttribute('header.site a:text-is("Sign in")', 'href'), `${server.origin}/account/signin`, 'the header leads to signing in');
    await Promise.all([lena.waitForURL(/\/account\/signin\?next=/), lena.click('text=Write about it')]);
    await shot(lena, 'contribute-signin-next');
    await Promise.all([lena.waitForURL(/\/account\/signup\?next=/), lena.click('a:text-is("Create an account")')]);
    assert.ok((await lena.textContent('#username-hint'))!.includes('From 3 to 40 letters'), 'the name rule said first');
    await lena.fill('#username', 'lena-writer');
    await lena.fill('#password', PASSWORD);
    await Promise.all([lena.waitForURL(form), lena.click('button[type=submit]')]);
    // Another browser signs in on the way to the same form, and is brought back to it.
    const again = await context();
    await again.goto(form);
    assert.equal(new URL(again.url()).pathname, '/account/signin');
    await again.fill('#username', 'lena-writer');
    await again.fill('#password', PASSWORD);
    await Promise.all([again.waitForURL(form), again.click('button[type=submit]')]);

    await lena.fill('#title', 'The weavers\' lofts');
    await lena.fill('#body', 'Built in **1726** for *silk* weavers.\n\nSee https://example.org/lofts.');
    await lena.click('button:text-is("Preview")');
    assert.equal(await lena.textContent('.preview strong'), '1726', 'formatting shown as it will be published');
    assert.equal(await lena.inputValue('#body'), 'Built in **1726** for *silk* weavers.\n\nSee https://example.org/lofts.', 'the text kept in the form');
    await shot(lena, 'contribute-preview');
    await Promise.all([lena.waitForURL(/\/account\/contributions\/\d+\?done=sent$/), lena.click('text=Send for review')]);
    assert.ok((await lena.textContent('p.notice'))!.startsWith('Thank you — sent.'));
    await shot(lena, 'contribute-sent');
    const own = lena.url().replace(/\?.*$/, '');

    await lena.goto(`${server.origin}/account/`);
    await Promise.all([lena.waitForURL(own), lena.click('text=The weavers\' lofts')]);
    assert.equal(await lena.inputValue('#title'), 'The weavers\' lofts', 'its form filled in');
    await lena.fill('#title', 'The weavers\' lofts of Fournier Street');
    await shot(lena, 'contribute-own');
    await Promise.all([lena.waitForURL(`${own}?done=saved`), lena.click('text=Save the correction')]);
    assert.ok((await lena.textContent('p.notice'))!.startsWith('Saved'));
    assert.equal(await lena.inputValue('#title'), 'The weavers\' lofts of Fournier Street');
    await Promise.all([lena.waitForURL(`${own}?done=withdrawn`), lena.click('button:text-is("Withdraw it")')]);
    assert.equal(await lena.textContent('strong.state'), 'withdrawn by you');
    assert.equal(await lena.locator('#title').count(), 0, 'no longer correctable');
    await shot(lena, 'contribute-withdrawn');
    assert.deepEqual(violations, [], 'axe on every page of the walk');
  });

  test('accounts people manage: sessions, a password changed, a reset link from an editor used once', async () => {
    violations.length = 0;
    const signIn = async (name: string, password: string) => {
      const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      await page.setViewportSize({ width: 1100, height: 900 });
      await page.goto(`${server.origin}/account/signin`);
      await page.fill('#username', name);
      await page.fill('#password', password);
      await Promise.all([page.waitForURL(`${server.origin}/account/`), page.click('button[type=submit]')]);
      return page;
    };
    const pia = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await pia.goto(`${server.origin}/account/signup`);
    await pia.fill('#username', 'pia-walker');
    await pia.fill('#password', PASSWORD);
    await Promise.all([pia.waitForURL(`${server.origin}/account/`), pia.click('button[type=submit]')]);
    const elsewhere = await signIn('pia-walker', PASSWORD);
    await pia.reload();
    await shot(pia, 'account-sessions');
    await Promise.all([pia.waitForURL(`${server.origin}/account/password`), pia.click('text=Change your password')]);
    await pia.fill('#current', PASSWORD);
    await pia.fill('#password', 'a quieter walk along Fieldgate Street');
    await shot(pia, 'account-password');
    await Promise.all([pia.waitForURL(`${server.origin}/account/`), pia.click('button[type=submit]')]);
    await elsewhere.reload();
    assert.equal(new URL(elsewhere.url()).pathname, '/account/signin', 'the other session ended');

    const editor = await signIn('ed-editor', PASSWORD);
    await editor.goto(`${server.origin}/moderate/accounts/reset`);
    await editor.fill('#username', 'pia-walker');
    await editor.click('text=Issue a reset link');
    const link = await editor.inputValue('#link');
    await shot(editor, 'account-reset-issued');
    const owner = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await owner.goto(link);
    await owner.fill('#password', 'the third walk, down Old Montague Street');
    await shot(owner, 'account-reset');
    await Promise.all([owner.waitForURL(`${server.origin}/account/signin`), owner.click('button[type=submit]')]);
    await pia.reload();
    assert.equal(new URL(pia.url()).pathname, '/account/signin', 'every session ended by the reset');
    assert.equal((await owner.goto(link))?.status(), 404, 'the link is used');
    await signIn('pia-walker', 'the third walk, down Old Montague Street');
    assert.deepEqual(violations, [], 'axe on every page of the walk');
  });
});
