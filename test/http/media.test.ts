import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { request } from '../support/http.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

let t: TestServer;
let root: string;
let outside: string;

before(async () => {
  root = temporaryDir();
  outside = temporaryDir();
  const dir = path.join(root, 'uploads/features/1');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'Osborn St 1975 (GLC).jpg'), 'JPEGDATA');
  fs.mkdirSync(path.join(root, 'uploads/features/5'), { recursive: true });
  fs.writeFileSync(path.join(root, "uploads/features/5/St Mary's #2 & 100% Łódź.jpg"), 'PNG-ish');
  fs.mkdirSync(path.join(root, 'categories'));
  fs.writeFileSync(path.join(root, 'categories/pubs.png'), 'PNGDATA');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'SECRET');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'categories/link.png'));
  fs.symlinkSync(outside, path.join(root, 'escape'));
  // Dotfiles a media folder may hold by accident, and active content a harvest may bring.
  fs.writeFileSync(path.join(root, '.env'), 'SECRET=1');
  fs.mkdirSync(path.join(root, '.git'));
  fs.writeFileSync(path.join(root, '.git/config'), 'SECRET');
  fs.mkdirSync(path.join(root, 'uploads/.cache'));
  fs.writeFileSync(path.join(root, 'uploads/.cache/x.jpg'), 'SECRET');
  fs.symlinkSync(path.join(root, '.env'), path.join(root, 'categories/env.png'));
  fs.writeFileSync(path.join(root, 'uploads/page.html'), '<script>fetch("/api/v1/")</script>');
  fs.writeFileSync(path.join(root, 'uploads/drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  t = await startTestServer({ settings: { mediaRoot: root } });
});
after(async () => {
  await t.close();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('media files under /media/', () => {
  test('the URL of every image in the API resolves to its file', async () => {
    const images = (await request(t.origin, '/api/v1/images/')).json().results;
    const bodies = ['JPEGDATA', 'PNG-ish'];
    for (const [i, image] of images.entries()) {
      const url = new URL(image.file);
      const answer = await request(t.origin, url.pathname);
      assert.equal(answer.status, 200, url.pathname);
      assert.equal(answer.text, bodies[i]);
      assert.match(String(answer.headers['content-type']), /^image\/jpeg/);
    }
  });

  test('a category thumbnail resolves, with its content type', async () => {
    const answer = await request(t.origin, '/media/categories/pubs.png');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'image/png');
  });

  const refused = [
    '/media/',
    '/media/uploads/',
    '/media/uploads/features/1',
    '/media/../package.json',
    '/media/%2e%2e/%2e%2e/etc/passwd',
    '/media/uploads/%2E%2E/%2E%2E/categories/pubs.png',
    '/media/uploads//features/1/x.jpg',
    '/media/categories/link.png',
    '/media/escape/secret.txt',
    '/media/categories%2F..%2F..%2Fsecret.txt',
    '/media/nothing.jpg',
    '/media/categories/pubs.png%00.txt',
    '/media/.env',
    '/media/%2eenv',
    '/media/.git/config',
    '/media/uploads/.cache/x.jpg',
    '/media/categories/env.png',
  ];
  for (const path of refused) {
    test(`${path}: 404, nothing outside the root, no listings`, async () => {
      const answer = await request(t.origin, path);
      assert.equal(answer.status, 404);
      assert.ok(!answer.text.includes('SECRET'));
      assert.deepEqual(answer.json(), { detail: 'Not found.' });
    });
  }
});

describe('active content in the media folder', () => {
  for (const [file, type] of [['uploads/page.html', /^text\/html/], ['uploads/drawing.svg', /^image\/svg\+xml/], ['categories/pubs.png', /^image\/png/]] as const) {
    test(`${file}: served with nosniff and a sandboxing CSP, so no script of it runs as the site`, async () => {
      const answer = await request(t.origin, `/media/${file}`);
      assert.equal(answer.status, 200);
      assert.match(String(answer.headers['content-type']), type);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      const csp = String(answer.headers['content-security-policy']).split(';').map((d) => d.trim());
      assert.ok(csp.includes('sandbox'), String(answer.headers['content-security-policy']));
      assert.ok(csp.includes("default-src 'none'"), String(answer.headers['content-security-policy']));
      assert.ok(!csp.some((d) => d.startsWith('script-src')));
    });
  }
});
