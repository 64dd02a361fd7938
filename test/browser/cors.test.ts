// A real browser on another origin: a tiny page served by a second server (another port)
// fetch()es the API. With CORS open the data arrives (and the exposed ETag is readable);
// with CORS_ORIGINS naming a different origin, the browser blocks it.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchBrowser } from '../support/browser.js';
import { request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const skip = browserSkipReason() ?? false;

/** The other origin: one empty HTML page. */
async function startPageServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><title>an app</title><p>an app');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Fetched {
  ok: boolean;
  status?: number;
  body?: unknown;
  etag?: string | null;
  error?: string;
}

/** fetch() in the page; a blocked request rejects, and that is reported as `error`. */
function fetchInPage(page: Page, url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  return page.evaluate(
    async ({ url, headers }) => {
      try {
        const response = await fetch(url, { headers });
        return { ok: true, status: response.status, body: await response.json(), etag: response.headers.get('etag') };
      } catch (error) {
        return { ok: false, error: String(error) };
      }
    },
    { url, headers },
  );
}

describe('fetch() from a page on another origin', { skip }, () => {
  let browser: Browser;
  let pageServer: Awaited<ReturnType<typeof startPageServer>>;
  let page: Page;
  const requested: string[] = [];
  before(async () => {
    browser = await launchBrowser();
    pageServer = await startPageServer();
    page = await browser.newPage();
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${pageServer.origin}/`);
  });
  after(async () => {
    await browser?.close();
    await pageServer?.close();
  });

  describe('CORS_ORIGINS=* (the default)', () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer();
    });
    after(() => t.close());

    test('a features page arrives, with its ETag readable', async () => {
      const path = '/api/v1/features/?page_size=3';
      // The browser asks for brotli (compression is on by default): its ETag is the brotli body's.
      const expected = await request(t.origin, path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(expected.headers['content-encoding'], 'br');
      const fetched = await fetchInPage(page, `${t.origin}${path}`);
      assert.equal(fetched.error, undefined);
      assert.equal(fetched.status, 200);
      assert.deepEqual(fetched.body, (await request(t.origin, path)).json());
      assert.equal(fetched.etag, expected.headers.etag);
    });

    test('a detail record arrives, also through a preflight (a non-simple request header)', async () => {
      const first = (await request(t.origin, '/api/v1/images/')).json().results[0];
      const path = `/api/v1/images/${first.id}/`;
      const expected = (await request(t.origin, path)).json();
      assert.deepEqual((await fetchInPage(page, `${t.origin}${path}`)).body, expected);
      const preflighted = await fetchInPage(page, `${t.origin}${path}`, { 'x-requested-with': 'an-app' });
      assert.equal(preflighted.error, undefined);
      assert.deepEqual(preflighted.body, expected);
    });

    test('an error answer is readable too', async () => {
      const fetched = await fetchInPage(page, `${t.origin}/api/v1/features/?bbox=nonsense`);
      assert.equal(fetched.status, 400);
      assert.match(String((fetched.body as { detail: string }).detail), /^Invalid bbox/);
    });
  });

  describe('CORS_ORIGINS naming the page\'s origin', () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ settings: { corsOrigins: pageServer.origin } });
    });
    after(() => t.close());

    test('the data arrives', async () => {
      const fetched = await fetchInPage(page, `${t.origin}/api/v1/features/?page_size=1`);
      assert.equal(fetched.status, 200);
      assert.equal((fetched.body as { count: number }).count, (await request(t.origin, '/api/v1/features/')).json().count);
    });
  });

  describe('CORS_ORIGINS naming a different origin', () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer({ settings: { corsOrigins: 'https://someone-else.example' } });
    });
    after(() => t.close());

    test('the browser blocks the answer: fetch() rejects', async () => {
      // The server does answer (it is the browser that refuses to hand it over).
      assert.equal((await request(t.origin, '/api/v1/features/')).status, 200);
      for (const headers of [{}, { 'x-requested-with': 'an-app' }] as Record<string, string>[]) {
        const fetched = await fetchInPage(page, `${t.origin}/api/v1/features/`, headers);
        assert.equal(fetched.ok, false);
        assert.match(String(fetched.error), /TypeError/);
      }
    });
  });

  test('no request left 127.0.0.1', () => {
    assert.ok(requested.length > 0);
    for (const url of requested) assert.equal(new URL(url).hostname, '127.0.0.1', url);
  });
});
