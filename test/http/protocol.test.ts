import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiRootSchema, ErrorSchema, OptionsSchema } from '../../src/render/schemas.js';
import { rawAnswer } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/in-process.js';
import { assertMatches } from '../support/schemas.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const API_PATHS = [
  '/api/v1/',
  '/api/v1/features/',
  '/api/v1/images/',
  '/api/v1/documents/',
  '/api/v1/media/',
  '/api/v1/features/1/',
  '/api/v1/images/7/',
  '/api/v1/documents/971/',
  '/api/v1/media/4/',
];

function assertApiHeaders(headers: Record<string, unknown>, where: string): void {
  assert.equal(headers['content-type'], 'application/json', where);
  assert.equal(headers['vary'], 'Accept, Accept-Encoding', where);
  assert.equal(headers['allow'], 'GET, HEAD, OPTIONS', where);
}

describe('headers of every API answer', () => {
  for (const path of API_PATHS) {
    test(`GET ${path}: 200, Content-Type exactly application/json, Vary: Accept, Accept-Encoding, Allow`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 200);
      assertApiHeaders(answer.headers, path);
    });
  }

  for (const path of ['/api/v1/features/?page=9', '/api/v1/nothing/', '/api/v1/features/2/', '/api/v1/features/?format=xml']) {
    test(`errors carry them too: ${path}`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 404);
      assertApiHeaders(answer.headers, path);
      assertMatches(ErrorSchema, answer.json());
    });
  }
});

describe('HEAD', () => {
  for (const path of API_PATHS) {
    test(`HEAD ${path}: the GET headers with Content-Length, no body`, async () => {
      const got = await t.request(path);
      const head = await t.request(path, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      assert.equal(head.headers['content-length'], String(Buffer.byteLength(got.text)));
      assertApiHeaders(head.headers, path);
    });
  }
});

describe('OPTIONS', () => {
  const names: Record<string, string> = {
    '/api/v1/': 'Api Root',
    '/api/v1/features/': 'Feature List',
    '/api/v1/images/': 'Image List',
    '/api/v1/documents/': 'Document List',
    '/api/v1/media/': 'Media List',
    '/api/v1/features/1/': 'Feature Instance',
    '/api/v1/media/4/': 'Media Instance',
  };
  for (const [path, name] of Object.entries(names)) {
    test(`OPTIONS ${path}: 200, Allow, a JSON description named "${name}"`, async () => {
      const answer = await t.request(path, { method: 'OPTIONS' });
      assert.equal(answer.status, 200);
      assertApiHeaders(answer.headers, path);
      const body = answer.json();
      assertMatches(OptionsSchema, body);
      assert.equal(body.name, name);
      assert.ok(body.description.length > 0);
      assert.deepEqual(body.renders, ['application/json']);
      assert.ok(body.parses.includes('application/json'));
    });
  }
});

describe('methods other than GET, HEAD and OPTIONS', () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    for (const path of ['/api/v1/features/', '/api/v1/images/7/', '/api/v1/']) {
      test(`${method} ${path}: 405 with Allow and the original's detail`, async () => {
        const answer = await t.request(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: '{"not": "parsed"',
        });
        assert.equal(answer.status, 405);
        assertApiHeaders(answer.headers, path);
        assert.deepEqual(answer.json(), { detail: `Method "${method}" not allowed.` });
      });
    }
  }
});

describe('the API root', () => {
  test('lists the four collections with absolute URLs', async () => {
    const answer = await t.request('/api/v1/');
    assertMatches(ApiRootSchema, answer.json());
    assert.deepEqual(answer.json(), {
      features: `${t.origin}/api/v1/features/`,
      documents: `${t.origin}/api/v1/documents/`,
      images: `${t.origin}/api/v1/images/`,
      media: `${t.origin}/api/v1/media/`,
    });
  });

  for (const format of ['json', 'api']) {
    test(`keeps format=${format} in its links`, async () => {
      const answer = await t.request(`/api/v1/?format=${format}`);
      assert.equal(answer.json().features, `${t.origin}/api/v1/features/?format=${format}`);
      assert.equal(answer.json().media, `${t.origin}/api/v1/media/?format=${format}`);
    });
  }
});

describe('format', () => {
  test('format=json and format=api give the same JSON envelope', async () => {
    const plain = (await t.request('/api/v1/images/')).json();
    for (const format of ['json', 'api']) {
      const answer = await t.request(`/api/v1/images/?format=${format}`);
      assert.equal(answer.headers['content-type'], 'application/json');
      assert.deepEqual(answer.json(), plain);
    }
  });

  for (const path of ['/api/v1/features/?format=xml', '/api/v1/?format=html', '/api/v1/features/1/?format=yaml', '/api/v1/features/?format=']) {
    test(`${path}: 404 Not found.`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.json(), { detail: 'Not found.' });
    });
  }
});

describe('paths', () => {
  const redirects = [
    ['/api/v1', '/api/v1/'],
    ['/api/v1/features', '/api/v1/features/'],
    ['/api/v1/features?page=2&format=api', '/api/v1/features/?page=2&format=api'],
    ['/api/v1/media/4', '/api/v1/media/4/'],
  ];
  for (const [from, to] of redirects) {
    test(`${from} redirects (301) to ${to}`, async () => {
      const answer = await t.request(from!);
      assert.equal(answer.status, 301);
      assert.equal(answer.headers.location, to);
    });
  }

  // `/` is the map page (test/http/map-page.test.ts).
  for (const path of ['/api/v1/nothing/', '/api/v2/features/', '/api/', '/api/v1/features/1/extra/', '/media/x.jpg']) {
    test(`${path}: 404 Not found. as JSON`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 404);
      assert.equal(answer.headers['content-type'], 'application/json');
      assert.deepEqual(answer.json(), { detail: 'Not found.' });
    });
  }

  test('an empty collection has a page 1 with empty results, and no page 2', async () => {
    const answer = await t.request('/api/v1/documents/?page=1');
    assert.equal(answer.json().count, 1);
    const empty = await startTestApp({
      catalogue: { format: 'heritage-catalogue/1', authors: [], categories: [], sites: [], features: [], images: [], documents: [], media: [] },
    });
    try {
      const first = await empty.request('/api/v1/features/');
      assert.deepEqual(first.json(), { count: 0, next: null, previous: null, results: { type: 'FeatureCollection', features: [] } });
      const last = await empty.request('/api/v1/media/?page=last');
      assert.deepEqual(last.json(), { count: 0, next: null, previous: null, results: [] });
      const second = await empty.request('/api/v1/images/?page=2');
      assert.equal(second.status, 404);
    } finally {
      await empty.close();
    }
  });
});

describe('X-Content-Type-Options: nosniff on every answer', () => {
  const answers: [string, string, Record<string, string>?, string?][] = [
    ['GET', '/api/v1/features/'],
    ['GET', '/api/v1/features/?page=99'],
    ['GET', '/api/v1/features/', { host: 'evil.example' }],
    ['DELETE', '/api/v1/features/'],
    ['OPTIONS', '/api/v1/'],
    ['OPTIONS', '/api/v1/', { origin: 'https://app.example', 'access-control-request-method': 'GET' }],
    ['GET', '/api/v1/features'],
    ['GET', '/healthz'],
    ['GET', '/metrics'],
    ['GET', '/tiles/features/0/0/0.mvt'],
    ['GET', '/tiles/features/99/0/0.mvt'],
    ['GET', '/map/config.json'],
    ['GET', '/api/v1/openapi.json'],
    ['GET', '/nothing'],
    ['GET', '/%ff'],
  ];
  for (const [method, path, headers] of answers) {
    test(`${method} ${path}${headers ? ` ${JSON.stringify(headers)}` : ''}`, async () => {
      const answer = await t.request(path, { method, headers });
      assert.equal(answer.headers['x-content-type-options'], 'nosniff', String(answer.status));
    });
  }

  describe('too broken for the router (on a socket: these never reach Fastify as requests)', () => {
    let listening: TestServer;
    before(async () => {
      listening = await startTestServer();
    });
    after(() => listening.close());

    for (const text of ['GARBAGE\r\n\r\n', 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', 'GET * HTTP/1.1\r\nHost: localhost\r\n\r\n']) {
      test(JSON.stringify(text.split('\r\n')[0]), async () => {
        const answer = await rawAnswer(listening.origin, text);
        assert.ok(answer.status >= 400, String(answer.status));
        assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      });
    }
  });
});
