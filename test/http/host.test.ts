import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rawRequest, request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('links from the Host header (no BASE_URL)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  for (const host of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST']) {
    test(`Host ${host}:port is allowed and used in links`, async () => {
      const answer = await request(t.origin, '/api/v1/features/', { headers: { host: `${host}:${t.port}` } });
      assert.equal(answer.status, 200);
      assert.equal(answer.json().next, `http://${host.toLowerCase()}:${t.port}/api/v1/features/?page=2`);
    });
  }

  for (const host of ['evil.example', 'localhost.evil.example', 'bad host', 'localhost:port']) {
    for (const path of ['/api/v1/features/', '/api/v1/', '/api/v1/images/7/', '/nothing']) {
      test(`Host "${host}" on ${path}: 400 Invalid host header.`, async () => {
        const answer = await request(t.origin, path, { headers: { host } });
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.json(), { detail: 'Invalid host header.' });
        assert.ok(!answer.text.includes('evil'));
      });
    }
  }

  test('a request without any Host header (HTTP/1.0) is refused', async () => {
    const answer = await rawRequest(t.origin, 'GET /api/v1/ HTTP/1.0\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.[01] 400 /);
    assert.ok(answer.endsWith('{"detail":"Invalid host header."}'), answer);
  });

  test('X-Forwarded-Host and -Proto are ignored without TRUST_PROXY', async () => {
    const answer = await request(t.origin, '/api/v1/', {
      headers: { host: `localhost:${t.port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    assert.equal(answer.json().features, `http://localhost:${t.port}/api/v1/features/`);
  });
});

describe('BASE_URL', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ settings: { baseUrl: 'https://heritage.example.org/whitechapel/' } });
  });
  after(() => t.close());

  test('every link and media URL starts with it', async () => {
    const features = (await request(t.origin, '/api/v1/features/')).json();
    assert.equal(features.next, 'https://heritage.example.org/whitechapel/api/v1/features/?page=2');
    assert.equal(
      features.results.features[0].properties.categories[1].thumbnail,
      'https://heritage.example.org/whitechapel/media/categories/pubs.png',
    );
    const image = (await request(t.origin, '/api/v1/images/7/')).json();
    assert.ok(image.file.startsWith('https://heritage.example.org/whitechapel/media/uploads/features/1/'));
  });

  test("its host is allowed by default; others still are not", async () => {
    const own = await request(t.origin, '/api/v1/', { headers: { host: 'heritage.example.org' } });
    assert.equal(own.status, 200);
    const other = await request(t.origin, '/api/v1/', { headers: { host: 'evil.example' } });
    assert.equal(other.status, 400);
  });
});

describe('ALLOWED_HOSTS and TRUST_PROXY', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ settings: { allowedHosts: '.example.org,api.test', trustProxy: '1' } });
  });
  after(() => t.close());

  const cases = [
    { host: 'example.org', status: 200 },
    { host: 'maps.example.org', status: 200 },
    { host: 'api.test:8080', status: 200 },
    { host: 'example.org.evil', status: 400 },
    { host: 'localhost', status: 400 },
  ];
  for (const c of cases) {
    test(`Host ${c.host}: ${c.status}`, async () => {
      const answer = await request(t.origin, '/api/v1/', { headers: { host: c.host } });
      assert.equal(answer.status, c.status);
    });
  }

  test('behind a trusted proxy, X-Forwarded-Proto and -Host build the links', async () => {
    const answer = await request(t.origin, '/api/v1/', {
      headers: { host: 'api.test', 'x-forwarded-host': 'maps.example.org', 'x-forwarded-proto': 'https' },
    });
    assert.equal(answer.json().features, 'https://maps.example.org/api/v1/features/');
  });

  test('a forwarded Host outside ALLOWED_HOSTS is refused', async () => {
    const answer = await request(t.origin, '/api/v1/', { headers: { host: 'api.test', 'x-forwarded-host': 'evil.example' } });
    assert.equal(answer.status, 400);
  });

  test('ALLOWED_HOSTS=* allows any host', async () => {
    const any = await startTestServer({ settings: { allowedHosts: '*' } });
    try {
      const answer = await request(any.origin, '/api/v1/', { headers: { host: 'anything.example:81' } });
      assert.equal(answer.json().features, 'http://anything.example:81/api/v1/features/');
    } finally {
      await any.close();
    }
  });
});
