// HTTP caching and compression: strong ETags tied to the catalogue version, 304s,
// Cache-Control, compression (on by default, COMPRESS=off); and the answer cache never changes an answer.
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { buildTestCatalogue } from '../support/catalogue.js';
import { crawl } from '../support/crawl.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { importInto } from '../support/server.js';
import { createTestDatabase, type TestDatabase } from '../support/stores.js';

const PATHS = ['/api/v1/features/', '/api/v1/features/?page=last&page_size=7', '/api/v1/images/', '/api/v1/documents/971/', '/api/v1/features/?q=osborn'];

describe('ETag, If-None-Match and Cache-Control', () => {
  let t: TestApp;
  let database: TestDatabase;
  before(async () => {
    database = createTestDatabase();
    t = await startTestApp({ database, settings: { versionPollMs: '50' } });
  });
  after(() => t.close());

  test('every 200 has a strong ETag and the default Cache-Control; If-None-Match gives 304 with no body', async () => {
    for (const path of PATHS) {
      const first = await t.request(path);
      assert.equal(first.status, 200, path);
      const etag = first.headers.etag!;
      assert.match(etag, /^"\d+-[\w-]+"$/, path);
      assert.equal(first.headers['cache-control'], 'public, max-age=60');
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await t.request(path, { headers: { 'if-none-match': header } });
        assert.equal(again.status, 304, `${path} ${header}`);
        assert.equal(again.bytes.length, 0);
        assert.equal(again.headers.etag, etag);
        assert.equal(again.headers.vary, 'Accept, Accept-Encoding');
      }
      const other = await t.request(path, { headers: { 'if-none-match': '"0-nothing"' } });
      assert.equal(other.status, 200);
      assert.equal(other.text, first.text);
    }
  });

  test('different URLs and base URLs have different ETags; errors have none', async () => {
    const tags = await Promise.all(PATHS.map(async (p) => (await t.request(p)).headers.etag));
    assert.equal(new Set(tags).size, PATHS.length);
    const missing = await t.request('/api/v1/features/999999/');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.etag, undefined);
  });

  test('a new import changes every ETag, and the new catalogue is served within a poll', async () => {
    const before = await Promise.all(PATHS.map(async (p) => (await t.request(p)).headers.etag));
    await importInto(database.settings, buildTestCatalogue());
    const deadline = Date.now() + 2000;
    let after: (string | undefined)[] = before;
    while (Date.now() < deadline && after.some((tag, i) => tag === before[i])) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await Promise.all(PATHS.map(async (p) => (await t.request(p)).headers.etag));
    }
    after.forEach((tag, i) => assert.notEqual(tag, before[i], PATHS[i]));
  });
});

test('Cache-Control is configurable', async () => {
  const t = await startTestApp({ settings: { cacheControl: 'no-cache' } });
  try {
    assert.equal((await t.request('/api/v1/media/')).headers['cache-control'], 'no-cache');
  } finally {
    await t.close();
  }
});

// Oracle: the same app with its answer cache off.
test('the answer cache never changes an answer: every page, cached and uncached, byte for byte', async () => {
  const uncached = await startTestApp({ settings: { cacheMaxMb: '0' } });
  const cached = await startTestApp();
  try {
    const normalise = (pages: Map<string, string>, origin: string) => [...pages].map(([u, body]) => [u, body.replaceAll(origin, 'ORIGIN')]);
    const reference = normalise(await crawl(uncached), uncached.origin);
    assert.ok(reference.length > 30);
    for (let pass = 0; pass < 2; pass++) assert.deepEqual(normalise(await crawl(cached), cached.origin), reference, `pass ${pass}`);
  } finally {
    await uncached.close();
    await cached.close();
  }
});

describe('compression, on by default', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('brotli or gzip by Accept-Encoding and its q-values, decoding to the same bytes; Vary gains Accept-Encoding', async () => {
    for (const path of PATHS) {
      const plain = await t.request(path);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers.vary, 'Accept, Accept-Encoding');
      const cases: [string, string | undefined, (b: Buffer) => Buffer][] = [
        ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
        ['gzip', 'gzip', zlib.gunzipSync],
        ['br;q=0, gzip;q=0.5', 'gzip', zlib.gunzipSync],
        ['br;q=0.5, gzip;q=0.9', 'gzip', zlib.gunzipSync],
        ['*, br;q=0', 'gzip', zlib.gunzipSync],
        ['identity', undefined, (b) => b],
        ['identity;q=0', undefined, (b) => b],
        ['br;q=0, gzip;q=0', undefined, (b) => b],
      ];
      for (const [accept, encoding, decode] of cases) {
        for (let round = 0; round < 2; round++) {
          const answer = await t.request(path, { headers: { 'accept-encoding': accept } });
          assert.equal(answer.status, 200, `${path} ${accept}`);
          assert.equal(answer.headers['content-encoding'], encoding, `${path} ${accept}`);
          assert.ok(decode(answer.bytes).equals(plain.bytes), `${path} ${accept}`);
        }
      }
    }
  });

  test('each encoding has its own strong ETag, and If-None-Match matches only the encoding it names', async () => {
    for (const path of PATHS) {
      const tags = new Map<string, string>();
      for (const accept of ['identity', 'gzip', 'br']) {
        const answer = await t.request(path, { headers: { 'accept-encoding': accept } });
        tags.set(accept, answer.headers.etag!);
        assert.match(answer.headers.etag!, /^"\d+-[\w-]+"$/, `${path} ${accept}`);
      }
      assert.equal(new Set(tags.values()).size, 3, `${path}: ${[...tags.values()]}`);
      for (const [accept, etag] of tags) {
        for (const [other, otherTag] of tags) {
          const answer = await t.request(path, { headers: { 'accept-encoding': accept, 'if-none-match': otherTag } });
          assert.equal(answer.status, accept === other ? 304 : 200, `${path}: ${accept} with the ETag of ${other}`);
          assert.equal(answer.headers.etag, etag);
        }
      }
    }
  });

  test('the map configuration, outside /api/, varies by Accept-Encoding too', async () => {
    const answer = await t.request('/map/config.json', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(answer.headers['content-encoding'], 'gzip');
    assert.equal(answer.headers.vary, 'Accept-Encoding');
  });
});

test('COMPRESS=off (a proxy in front compresses): nothing is compressed and Vary stays exactly Accept', async () => {
  const t = await startTestApp({ settings: { compress: 'off' } });
  try {
    const answer = await t.request('/api/v1/features/', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.equal(answer.headers.vary, 'Accept');
    assert.doesNotThrow(() => answer.json());
  } finally {
    await t.close();
  }
});
