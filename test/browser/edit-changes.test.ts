// An editor's changes in a real browser (Debian's Chromium, JavaScript off: the pages need
// none), on either store (PostgreSQL: the twin in test/postgres/): a change file chosen in
// the file field, its preview, "Apply these changes", the latest changes, a record's history
// in words, and the undo of the whole change from there. axe finds no violation on any page,
// and none is wider than a 390 px phone. Screenshots go to EDIT_SCREENS_DIR (default
// /tmp/edit-screens/, outside git; docs/screens/ holds a set: edit-*.jpeg).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { runCli } from '../support/cli.js';
import { checkPage, PHONE_WIDTH } from '../support/page-check.js';
import { startTestServer, type TestServer } from '../support/server.js';

const SCREENS = process.env.EDIT_SCREENS_DIR ?? '/tmp/edit-screens';
const PASSWORD = 'a long walk down Brick Lane';
const skip = browserSkipReason();

describe('an editor\'s changes in a browser', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  const problems: string[] = [];

  /** A screenshot of the page, axe's violations, and whether it fits a phone. */
  const shot = async (page: Page, name: string) => {
    problems.push(...await checkPage(browser, page, name, { screens: SCREENS, widths: [PHONE_WIDTH] }));
  };
  const address = async (id: number) => {
    const answer = await server.request(`/api/v1/features/${id}/`);
    assert.equal(answer.status, 200);
    return (answer.json() as { properties: { address: string } }).properties.address;
  };

  before(async () => {
    server = await startTestServer({ catalogue: buildTestCatalogue(), settings: { contributions: '1' } });
    const add = await runCli(['users', 'add', 'ed-editor', '--role', 'editor', ...server.dbArgs], { input: `${PASSWORD}\n` });
    assert.equal(add.code, 0, add.stderr);
    browser = await launchBrowser();
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a change file chosen, previewed, applied as one change, seen in the latest changes and the history, undone', async () => {
    const catalogue = buildTestCatalogue();
    const five = catalogue.features.find((f) => f.id === 5)!;
    const nine = catalogue.images.find((i) => i.id === 9)!;
    const file = {
      format: 'heritage-changes/1',
      sites: { put: [{ id: 2, name: 'Toynbee Hall' }] },
      features: { put: [{ ...five, address: '7 Fournier Street, London E1 6QE', site: 2, categories: [3, 4] }] },
      images: { put: [{ ...nine, copyright: true, title: 'St Mary\'s from the west, 1890' }] },
      media: { remove: [6] },
    };
    const editor = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await editor.setViewportSize({ width: 1100, height: 900 });
    await editor.goto(`${server.origin}/account/signin`);
    await editor.fill('#username', 'ed-editor');
    await editor.fill('#password', PASSWORD);
    await Promise.all([editor.waitForURL(`${server.origin}/account/`), editor.click('button[type=submit]')]);
    await Promise.all([editor.waitForURL(`${server.origin}/edit/changes`), editor.click('text=Apply a change file')]);
    await editor.setInputFiles('#file', { name: 'fournier-street.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file, null, 2)) });
    await Promise.all([editor.waitForLoadState('load'), editor.click('text=Show what it would change')]);
    const preview = await editor.textContent('section.preview');
    assert.match(preview!, /Address\s*5 Osborn Street, London E1 6TD → 7 Fournier Street, London E1 6QE/);
    assert.match(preview!, /Licence\s*open licence → the contributor keeps the copyright/);
    assert.match(preview!, /Removed:\s*Hidden video/);
    await shot(editor, 'edit-changes-preview');
    assert.equal(await address(5), '5 Osborn Street, London E1 6TD', 'nothing changed by the preview');

    await Promise.all([editor.waitForURL(`${server.origin}/edit/recent`), editor.click('text=Apply these changes')]);
    assert.equal(await address(5), '7 Fournier Street, London E1 6QE', 'served at once');
    assert.match((await editor.textContent('ol.changes > li'))!, /Applied change file «fournier-street\.json»/);
    await shot(editor, 'edit-recent');

    await Promise.all([editor.waitForURL(`${server.origin}/history/features/5`), editor.click('ol.changes > li >> text=Altab Ali Park')]);
    assert.match((await editor.textContent('ol.changes'))!, /Categories\s*added Pubs, Industry & power/);
    await shot(editor, 'edit-history');
    await Promise.all([editor.waitForURL(`${server.origin}/history/features/5`), editor.click('text=Undo this change (all 4 records)')]);
    assert.equal(await address(5), '5 Osborn Street, London E1 6TD', 'undone at once');
    assert.equal((await server.request('/api/v1/images/9/')).json().title, 'St Mary\'s #2');
    assert.match((await editor.textContent('ol.changes > li'))!, /Undid change \d+/);
    assert.deepEqual(problems, [], 'axe and the phone\'s width on every page');
  });
});
