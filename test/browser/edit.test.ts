// The editors' back office in a real browser (Debian's Chromium), on either store (PostgreSQL:
// the twin in test/postgres/): an editor corrects a building's address from its page (the
// API, the OGC item, the record page, the search and a download show it as soon as the save
// answers), edits a picture's credit, and two browsers edit one record at once (the second
// sees the conflict page with both texts, its own kept). The forms need no script, and run
// none here. axe finds no violation on any page; each is usable at 390 px. Screenshots go to
// EDIT_SCREENS_DIR (default /tmp/edit-screens/, outside git; docs/screens/ holds a set).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, type ProfileBrowser } from '../support/browser.js';
import { ensureWebBuilt, launchMapBrowser, openWatchedPage } from '../support/map-page.js';
import { decodeLayers } from '../support/tile-catalogue.js';
import { tileOf } from '../support/tile-math.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { checkPage, PHONE_WIDTH } from '../support/page-check.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SCREENS = process.env.EDIT_SCREENS_DIR ?? '/tmp/edit-screens';
const PASSWORD = 'a long walk down Brick Lane';
const BUILDING = 5;
const skip = browserSkipReason();

describe('editing in a browser', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  const violations: string[] = [];
  /** The building the drawing test made, which the undo test takes back. */
  let drawnId = 0;

  /** A screenshot of the page, and axe's violations on it, at the page's width and at 390 px. */
  const shot = async (page: Page, name: string) => {
    violations.push(...await checkPage(browser, page, name, { screens: SCREENS, widths: [page.viewportSize()!.width, PHONE_WIDTH] }));
  };
  const json = async (p: string) => {
    const answer = await server.request(p);
    assert.equal(answer.status, 200, p);
    return answer.json();
  };
  const signIn = async (name: string) => {
    const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${server.origin}/account/signin`);
    await page.fill('#username', name);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(/\/account\/$/), page.click('button[type=submit]')]);
    return page;
  };

  before(async () => {
    await ensureWebBuilt();
    server = await startTestServer({ catalogue: buildTestCatalogue(), settings: { contributions: '1' } });
    for (const name of ['ed-editor', 'eve-editor']) {
      const made = await runCli(['users', 'add', name, '--role', 'editor', ...server.dbArgs], { input: `${PASSWORD}\n` });
      assert.equal(made.code, 0, made.stderr);
    }
    browser = await launchBrowser();
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('an editor corrects an address from the building\'s page: every face shows it once the save answers', async () => {
    const editor = await signIn('ed-editor');
    await editor.goto(`${server.origin}/places/${BUILDING}/`);
    await shot(editor, 'edit-record-page');
    await Promise.all([editor.waitForURL(`${server.origin}/edit/features/${BUILDING}`), editor.click('nav.editor-bar >> text=Edit')]);
    await editor.fill('#field-address', '7 Fournier Street, London E1 6QE');
    await shot(editor, 'edit-form');
    await Promise.all([editor.waitForURL(/\?saved=\d+$/), editor.click('button[type=submit]')]);
    assert.ok((await editor.textContent('p.notice'))!.includes('Saved.'));
    await shot(editor, 'edit-saved');
    const address = '7 Fournier Street, London E1 6QE';
    assert.equal((await json(`/api/v1/features/${BUILDING}/`)).properties.address, address);
    assert.equal((await json(`/ogc/collections/features/items/${BUILDING}?f=json`)).properties.address, address);
    const visitor = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await visitor.goto(`${server.origin}/places/${BUILDING}/`);
    assert.ok((await visitor.content()).includes(address));
    await visitor.goto(`${server.origin}/search/?q=Fournier`);
    assert.ok((await visitor.content()).includes(`/places/${BUILDING}/`), 'found by the search');
    const download = await server.request('/ogc/collections/features/items?f=geojson');
    assert.equal(download.status, 200);
    const feature = (download.json() as { features: { id: number; properties: { address: string } }[] }).features.find((f) => f.id === BUILDING);
    assert.equal(feature?.properties.address, address, 'in the download');
    assert.deepEqual(violations, []);
  });

  test('an editor edits a picture\'s credit', async () => {
    const editor = await signIn('ed-editor');
    await editor.goto(`${server.origin}/pictures/9/`);
    await Promise.all([editor.waitForURL(`${server.origin}/edit/images/9`), editor.click('nav.editor-bar >> text=Edit')]);
    assert.equal(await editor.inputValue('#field-author'), 'zoë');
    await editor.fill('#field-author', 'surveyoflondon');
    await Promise.all([editor.waitForURL(/\?saved=\d+$/), editor.click('button[type=submit]')]);
    assert.equal((await json('/api/v1/images/9/')).author.username, 'surveyoflondon');
    assert.deepEqual(violations, []);
  });

  test('two browsers edit one building: the second sees the conflict page with both texts, its own kept in the form', async () => {
    const first = await signIn('ed-editor');
    const second = await signIn('eve-editor');
    await first.goto(`${server.origin}/edit/features/${BUILDING}`);
    await second.goto(`${server.origin}/edit/features/${BUILDING}`);
    await first.fill('#field-b_name', 'Fournier Hall');
    await Promise.all([first.waitForURL(/\?saved=\d+$/), first.click('button[type=submit]')]);
    await second.fill('#field-b_name', 'The Weavers\' House');
    await second.click('button[type=submit]');
    await second.waitForSelector('section.conflict');
    const table = (await second.textContent('table.compare'))!;
    assert.ok(table.includes('Fournier Hall'), 'theirs');
    assert.ok(table.includes('The Weavers\' House'), 'mine');
    assert.equal(await second.inputValue('#field-b_name'), 'The Weavers\' House', 'mine, kept in the form');
    await shot(second, 'edit-conflict');
    assert.equal((await json(`/api/v1/features/${BUILDING}/`)).properties.b_name, 'Fournier Hall', 'nothing of the second saved yet');
    await Promise.all([second.waitForURL(/\?saved=\d+$/), second.click('button[type=submit]')]);
    assert.equal((await json(`/api/v1/features/${BUILDING}/`)).properties.b_name, 'The Weavers\' House');
    assert.deepEqual(violations, []);
  });

  test('an editor draws a new building\'s footprint with the mouse and publishes it: it is in the tiles and on the map', async () => {
    const maps: ProfileBrowser = await launchMapBrowser();
    try {
      const { page, errors } = await openWatchedPage(maps.context, { width: 1100, height: 900 });
      await page.goto(`${server.origin}/account/signin`);
      await page.fill('#username', 'ed-editor');
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForURL(/\/account\/$/), page.click('button[type=submit]')]);
      await page.goto(`${server.origin}/edit/features/new`);
      await page.locator('[data-footprint][data-ready="true"]').waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => (globalThis as any).__map.loaded() && !(globalThis as any).__map.isMoving(), undefined, { timeout: 30_000, polling: 100 });
      // The map is low on the form: in view, so that the clicks land on it.
      await page.locator('.footprint-map').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => !(globalThis as any).__map.isMoving(), undefined, { polling: 100 });
      const box = (await page.locator('.footprint-map canvas').boundingBox())!;
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      await page.getByRole('button', { name: 'Draw a part' }).click();
      const corners = [[cx - 70, cy - 50], [cx + 70, cy - 50], [cx + 70, cy + 50], [cx - 70, cy + 50]] as const;
      for (const [x, y] of [...corners, corners[0]]) await page.mouse.click(x, y);
      await page.locator('[data-footprint][data-parts="1"]').waitFor();
      const drawn = JSON.parse(await page.locator('#geometry').inputValue()) as { type: string; coordinates: number[][][][] };
      assert.equal(drawn.coordinates[0]![0]!.length, 5, 'four corners, closed');
      await page.fill('#field-address', '41 Fournier Street, London E1 6QE');
      await page.fill('#field-postcode', 'E1 6QE');
      await page.fill('#field-b_name', 'The Drawn House');
      await shot(page, 'edit-new-building');
      await Promise.all([page.waitForURL(/\/edit\/features\/\d+\?saved=\d+$/), page.click('form.edit button[type=submit]')]);
      const id = Number(/\/edit\/features\/(\d+)\?/.exec(page.url())![1]);
      drawnId = id;
      const made = await json(`/api/v1/features/${id}/`);
      assert.equal(made.properties.b_name, 'The Drawn House');
      assert.deepEqual(made.geometry.coordinates, drawn.coordinates, 'the footprint as drawn');
      // In the vector tile that holds its first corner, at a zoom where every footprint is drawn whole.
      const tile = tileOf(drawn.coordinates[0]![0]![0]!, 18);
      const answer = await server.request(`/tiles/features/${tile.z}/${tile.x}/${tile.y}.mvt`);
      assert.equal(answer.status, 200);
      assert.ok(decodeLayers(answer.bytes).features.some((f) => f.properties['id'] === id), 'in the tile');
      // And drawn by the map explorer, which a visitor opens there (at a zoom where footprints are drawn, not gathered into points).
      const visitor = await openWatchedPage(maps.context, { width: 1100, height: 900 });
      const [lon, lat] = drawn.coordinates[0]![0]![0]!;
      await visitor.page.goto(`${server.origin}/#map=18/${lat}/${lon}`);
      await visitor.page.waitForFunction((wanted) => {
        const map = (globalThis as any).__map;
        return map !== undefined && map.loaded() && map.queryRenderedFeatures({ layers: ['footprints-fill'] }).some((f: any) => f.properties.id === wanted);
      }, id, { timeout: 30_000, polling: 100 });
      assert.deepEqual(errors, []);
      await visitor.close();
    } finally {
      await maps.close();
    }
    assert.deepEqual(violations, []);
  });

  test('an editor undoes both, each from its record\'s history: the picture\'s credit is back, the drawn building gone from the API and the tiles', async () => {
    assert.ok(drawnId > 0, 'the drawing test made a building');
    const editor = await signIn('ed-editor');
    await editor.goto(`${server.origin}/history/images/9`);
    await shot(editor, 'edit-history-picture');
    await Promise.all([editor.waitForURL(`${server.origin}/history/images/9`), editor.locator('form.undo button').first().click()]);
    assert.equal((await json('/api/v1/images/9/')).author.username, 'zoë', 'the credit as it was');
    const drawn = await json(`/api/v1/features/${drawnId}/`);
    await editor.goto(`${server.origin}/history/features/${drawnId}`);
    await Promise.all([editor.waitForURL(`${server.origin}/history/features/${drawnId}`), editor.locator('form.undo button').first().click()]);
    assert.equal((await server.request(`/api/v1/features/${drawnId}/`)).status, 404, 'the building is gone');
    const tile = tileOf(drawn.geometry.coordinates[0][0][0], 18);
    const answer = await server.request(`/tiles/features/${tile.z}/${tile.x}/${tile.y}.mvt`);
    assert.ok(answer.status === 204 || !decodeLayers(answer.bytes).features.some((f) => f.properties['id'] === drawnId), 'not in its tile');
    assert.ok((await editor.content()).includes('Undid change'), 'the undo is in the history');
    // A building with attachments asks before it goes, naming them (the question only: nothing is removed here).
    await editor.goto(`${server.origin}/edit/features/1/delete`);
    assert.ok((await editor.textContent('main'))!.includes('2 pictures'));
    await shot(editor, 'edit-remove-question');
    assert.deepEqual(violations, []);
  });
});
