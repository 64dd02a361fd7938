// CORS on /api/ and /ogc/ paths (CORS_ORIGINS): `*` by default, a list, or off. Without an Origin
// header nothing changes; errors carry the headers too; a preflight gets an empty 200.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, parseCorsOrigins, type RawSettings } from '../../src/config.js';
import type { Answer } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

const APP = 'http://app.example';
const OTHER = 'http://other.example:8080';
const EXPOSED = 'ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy';

const corsHeaders = (answer: Answer) => Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'));

async function withApp(settings: RawSettings, run: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await startTestApp({ settings });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

describe('CORS_ORIGINS=* (the default)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const PATHS = ['/api/v1/', '/api/v1/features/?page_size=2', '/api/v1/images/7/', '/api/v1/query/media/', '/api/v1/openapi.json'];

  test('with an Origin header: Access-Control-Allow-Origin *, the exposed headers, Vary unchanged (Accept, Accept-Encoding)', async () => {
    for (const path of PATHS) {
      const answer = await t.request(path, { headers: { origin: APP } });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['access-control-allow-origin'], '*', path);
      assert.equal(answer.headers['access-control-expose-headers'], EXPOSED, path);
      assert.equal(answer.headers.vary, 'Accept, Accept-Encoding', path);
    }
  });

  test('without an Origin header nothing changes, even after an answer with one was cached', async () => {
    for (const path of PATHS) {
      const withOrigin = await t.request(path, { headers: { origin: APP } });
      const without = await t.request(path);
      assert.deepEqual(corsHeaders(without), [], path);
      assert.equal(without.headers.vary, 'Accept, Accept-Encoding', path);
      assert.ok(without.bytes.equals(withOrigin.bytes), path);
      const again = await t.request(path, { headers: { origin: OTHER } });
      assert.equal(again.headers['access-control-allow-origin'], '*', path);
    }
  });

  test('errors carry the headers too, so a script can read them', async () => {
    const cases: [string, string, Record<string, string>, number][] = [
      ['GET', '/api/v1/features/2/', {}, 404],
      ['GET', '/api/v1/nothing/', {}, 404],
      ['GET', '/api/v1/features/?page=99', {}, 404],
      ['GET', '/api/v1/features/?bbox=1,2', {}, 400],
      ['GET', '/api/v1/features/', { host: 'evil.example' }, 400],
      ['POST', '/api/v1/features/', {}, 405],
      ['DELETE', '/api/v1/images/7/', {}, 405],
    ];
    for (const [method, path, headers, status] of cases) {
      const answer = await t.request(path, { method, headers: { origin: APP, ...headers } });
      assert.equal(answer.status, status, `${method} ${path}`);
      assert.equal(answer.headers['access-control-allow-origin'], '*', `${method} ${path}`);
      assert.equal(typeof answer.json().detail, 'string');
    }
  });

  test('a preflight gets an empty 200 with the methods, the requested headers and a max age', async () => {
    for (const path of ['/api/v1/features/', '/api/v1/media/4/']) {
      const answer = await t.request(path, {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-requested-with, if-none-match' },
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.text, '');
      assert.equal(answer.headers['access-control-allow-origin'], '*');
      assert.equal(answer.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
      assert.equal(answer.headers['access-control-allow-headers'], 'x-requested-with, if-none-match');
      assert.equal(answer.headers['access-control-max-age'], '86400');
    }
  });

  test('a plain OPTIONS keeps its JSON description, with or without an Origin', async () => {
    for (const headers of [{}, { origin: APP }] as Record<string, string>[]) {
      const answer = await t.request('/api/v1/features/', { method: 'OPTIONS', headers });
      assert.equal(answer.status, 200);
      assert.equal(answer.json().name, 'Feature List');
      assert.equal(answer.headers['access-control-allow-origin'], 'origin' in headers ? '*' : undefined);
    }
  });

  test('the OGC face (/ogc/) is shared like /api/: its answers, its refusals and its preflights', async () => {
    const answers: [string, number][] = [['/ogc/', 200], ['/ogc/collections/features/items?limit=2', 200], ['/ogc/collections/features/items?limt=2', 400], ['/ogc/nothing', 404]];
    for (const [path, status] of answers) {
      const answer = await t.request(path, { headers: { origin: APP } });
      assert.equal(answer.status, status, path);
      assert.equal(answer.headers['access-control-allow-origin'], '*', path);
      assert.equal(answer.headers['access-control-expose-headers'], EXPOSED, path);
      const plain = await t.request(path);
      assert.deepEqual(corsHeaders(plain), [], path);
    }
    const preflight = await t.request('/ogc/collections', { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'GET' } });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
  });

  test('paths outside /api/ are untouched, their 404s too', async () => {
    for (const [path, status] of [['/healthz', 200], ['/nothing/', 404]] as const) {
      for (const headers of [{}, { origin: APP }] as Record<string, string>[]) {
        const answer = await t.request(path, { headers });
        assert.equal(answer.status, status);
        assert.deepEqual(corsHeaders(answer), [], path);
        assert.equal(answer.headers.vary, undefined, path);
      }
    }
  });
});

describe('CORS_ORIGINS as a list', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ settings: { corsOrigins: `${APP}, ${OTHER}` } });
  });
  after(() => t.close());

  test('a listed origin is echoed and Vary gains Origin', async () => {
    for (const origin of [APP, OTHER]) {
      const answer = await t.request('/api/v1/features/1/', { headers: { origin } });
      assert.equal(answer.headers['access-control-allow-origin'], origin);
      assert.equal(answer.headers.vary, 'Accept, Accept-Encoding, Origin');
    }
  });

  test('another origin gets no Access-Control-Allow-Origin, in answers and preflights', async () => {
    const answer = await t.request('/api/v1/features/1/', { headers: { origin: 'http://evil.example' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], undefined);
    assert.equal(answer.headers.vary, 'Accept, Accept-Encoding, Origin');
    const preflight = await t.request('/api/v1/features/', {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });

  test('without an Origin header nothing changes', async () => {
    const answer = await t.request('/api/v1/features/1/');
    assert.deepEqual(corsHeaders(answer), []);
    assert.equal(answer.headers.vary, 'Accept, Accept-Encoding');
  });
});

test('with COMPRESS=off and a list, Vary is Accept, Origin', async () => {
  await withApp({ corsOrigins: APP, compress: 'off' }, async (t) => {
    const answer = await t.request('/api/v1/images/', { headers: { origin: APP, 'accept-encoding': 'gzip' } });
    assert.equal(answer.headers.vary, 'Accept, Origin');
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.equal(answer.headers['access-control-allow-origin'], APP);
  });
});

test('CORS_ORIGINS=off: no CORS headers, and an OPTIONS with preflight headers is a plain OPTIONS', async () => {
  await withApp({ corsOrigins: 'off' }, async (t) => {
    const answer = await t.request('/api/v1/features/', { headers: { origin: APP } });
    assert.deepEqual(corsHeaders(answer), []);
    const options = await t.request('/api/v1/features/', { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'GET' } });
    assert.equal(options.json().name, 'Feature List');
    assert.deepEqual(corsHeaders(options), []);
  });
});

test('a 429 carries the CORS headers and exposes the RateLimit-* and Retry-After headers', async () => {
  await withApp({ rateLimit: '1/minute', rateLimitExempt: '' }, async (t) => {
    const first = await t.request('/api/v1/', { headers: { origin: APP } });
    assert.equal(first.status, 200);
    const limited = await t.request('/api/v1/', { headers: { origin: APP } });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['access-control-allow-origin'], '*');
    assert.equal(limited.headers['access-control-expose-headers'], EXPOSED);
    for (const exposed of EXPOSED.split(', ').filter((h) => h !== 'ETag')) assert.ok(limited.headers[exposed.toLowerCase()] !== undefined, exposed);
  });
});

describe('parseCorsOrigins', () => {
  const good: [string, unknown][] = [
    ['*', '*'],
    ['off', 'off'],
    ['OFF', 'off'],
    ['https://App.Example.org', ['https://app.example.org']],
    ['http://localhost:3000, https://example.org/', ['http://localhost:3000', 'https://example.org']],
    ['https://example.org:443', ['https://example.org']],
  ];
  for (const [value, expected] of good) {
    test(`"${value}"`, () => assert.deepEqual(parseCorsOrigins(value), expected));
  }
  for (const value of ['example.org', 'ftp://example.org', 'https://example.org/app', 'https://example.org?x=1', '*, https://a.org', ' , ']) {
    test(`"${value}" is refused with a sentence`, () => assert.throws(() => parseCorsOrigins(value), ConfigError));
  }
});
