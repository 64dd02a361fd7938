// A hostile file in the media folder (an HTML page, an SVG drawing, each with a script), opened
// in a real browser from the site's own origin: its script never runs, while a picture still
// shows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const skip = browserSkipReason() ?? false;
/** Each script says this on the console if it runs. */
const RAN = 'hostile script ran';

describe('scripts in media files do not run', { skip }, () => {
  let browser: Browser;
  let t: TestServer;
  let root: string;
  before(async () => {
    root = temporaryDir();
    fs.mkdirSync(path.join(root, 'uploads'));
    fs.writeFileSync(path.join(root, 'uploads/page.html'), `<!DOCTYPE html><title>page</title><p>text</p><script>console.log(${JSON.stringify(RAN)})</script>`);
    fs.writeFileSync(path.join(root, 'uploads/drawing.svg'), `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>console.log(${JSON.stringify(RAN)})</script><rect width="10" height="10"/></svg>`);
    fs.writeFileSync(path.join(root, 'uploads/page.xml'), `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>console.log(${JSON.stringify(RAN)})</script></body></html>`);
    t = await startTestServer({ settings: { mediaRoot: root } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  for (const file of ['uploads/page.html', 'uploads/drawing.svg', 'uploads/page.xml']) {
    test(`/media/${file}: loads, and its script does not run`, async () => {
      const page = await browser.newPage();
      try {
        const said: string[] = [];
        page.on('console', (message) => said.push(message.text()));
        const response = await page.goto(`${t.origin}/media/${file}`, { waitUntil: 'load' });
        assert.equal(response?.status(), 200);
        // A script that runs at all runs while the document loads: 'load' has passed.
        assert.ok(!said.includes(RAN), said.join('\n'));
      } finally {
        await page.close();
      }
    });
  }
});
