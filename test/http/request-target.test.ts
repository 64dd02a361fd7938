// Request targets and request lines the client library would never send, written byte for
// byte: other spellings of an API path are counted and carry the API's headers exactly as
// the canonical path does (or are refused), never answered uncounted; `*`, two Host headers
// and an Expect the server cannot meet get a JSON answer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rawAnswer, rawRequest, type RawAnswer } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

const FEATURES = '/api/v1/features/?page=2';

let t: TestServer;
before(async () => {
  // Each test is its own client (X-Forwarded-For behind a trusted proxy), so counts start at 0.
  t = await startTestServer({ settings: { rateLimit: '2/minute', rateLimitExempt: '', trustProxy: '1', corsOrigins: '*' } });
});
after(() => t.close());

let clients = 0;
const newClient = () => `198.51.100.${++clients}`;

function get(target: string, client: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const lines = Object.entries({ Host: `127.0.0.1:${t.port}`, 'X-Forwarded-For': client, Origin: 'https://app.example', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return rawAnswer(t.origin, `GET ${target} HTTP/1.1\r\n${lines}Connection: close\r\n\r\n`);
}

function assertApiHeaders(answer: RawAnswer, where: string): void {
  assert.equal(answer.headers['vary'], 'Accept, Accept-Encoding', where);
  assert.equal(answer.headers['allow'], 'GET, HEAD, OPTIONS', where);
  assert.equal(answer.headers['access-control-allow-origin'], '*', where);
  assert.equal(answer.headers['content-type'], 'application/json', where);
}

describe('other spellings of an API path, against a client limited to 2 a minute', () => {
  const spellings = () => [
    '/%61pi/v1/features/?page=2',
    '/%61%70%69/%76%31/%66%65%61%74%75%72%65%73/?%70age=2',
    '/api/v1/%66eatures/?page=2',
    `http://127.0.0.1:${t.port}${FEATURES}`,
    `HTTP://127.0.0.1:${t.port}/%61pi/v1/features/?page=2`,
  ];

  test('each is answered exactly as the canonical path: the same bytes, counted, then 429; with Vary, Allow and CORS', async () => {
    const canonical = await get(FEATURES, newClient());
    assert.equal(canonical.status, 200);
    for (const target of spellings()) {
      const client = newClient();
      for (const remaining of ['1', '0']) {
        const answer = await get(target, client);
        assert.equal(answer.status, 200, target);
        assert.equal(answer.body, canonical.body, target);
        assert.equal(answer.headers['etag'], canonical.headers['etag'], target);
        assert.equal(answer.headers['ratelimit-remaining'], remaining, target);
        assertApiHeaders(answer, target);
      }
      const refused = await get(target, client);
      assert.equal(refused.status, 429, target);
      assert.match(refused.body, /^\{"detail":"Request was throttled\./, target);
      assertApiHeaders(refused, target);
    }
  });

  test('the links of an absolute-form target are built from its authority, whatever the Host header says', async () => {
    const answer = await get(`http://localhost:${t.port}${FEATURES}`, newClient(), { Host: `127.0.0.1:${t.port}` });
    assert.equal(answer.status, 200);
    assert.equal(JSON.parse(answer.body).next, `http://localhost:${t.port}/api/v1/features/?page=3`);
  });

  test('the Host check applies to the authority of an absolute-form target', async () => {
    const answer = await get('http://evil.example/api/v1/features/', newClient());
    assert.equal(answer.status, 400);
    assert.equal(answer.body, '{"detail":"Invalid host header."}');
  });

  for (const target of ['//api/v1/features/', '/api/v1/./features/', '/API/v1/features/', '/api/v1/features/%2e/', '/%2561pi/v1/features/']) {
    test(`${target}: refused, or answered and counted like the canonical path — never answered uncounted`, async () => {
      const client = newClient();
      const answer = await get(target, client);
      assert.ok(answer.status >= 400 && answer.status < 500, `${target}: ${answer.status}`);
      assert.match(answer.body, /^\{"detail":"/);
      // Any API-looking answer is counted: two more from the same client meet the limit.
      if (answer.headers['ratelimit-remaining'] !== undefined) {
        assertApiHeaders(answer, target);
        await get(target, client);
        assert.equal((await get(target, client)).status, 429, target);
      }
    });
  }

  for (const target of ['ftp://127.0.0.1/api/v1/', 'http://user@127.0.0.1/api/v1/', 'http:///api/v1/', 'http://127.0.0.1/api/v1/#x']) {
    test(`${target}: 400, the request target named`, async () => {
      const answer = await get(target, newClient());
      assert.equal(answer.status, 400);
      assert.equal(answer.body, '{"detail":"Invalid request target: send a path such as /api/v1/."}');
    });
  }
});

describe('the request line and headers', () => {
  test('GET *: 400 in JSON, not the map page', async () => {
    const answer = await get('*', newClient());
    assert.equal(answer.status, 400);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(answer.body, '{"detail":"Invalid request target: send a path such as /api/v1/."}');
  });

  test('OPTIONS *: 204 with the methods the server allows', async () => {
    const answer = await rawAnswer(t.origin, `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    assert.equal(answer.status, 204);
    assert.equal(answer.headers['allow'], 'GET, HEAD, OPTIONS');
    assert.equal(answer.body, '');
  });

  for (const path of ['/api/v1/', '/healthz', '/']) {
    test(`two Host headers on ${path}: 400 in JSON (RFC 9112 §3.2), whichever comes first`, async () => {
      for (const hosts of [['127.0.0.1', 'evil.example'], ['127.0.0.1', '127.0.0.1']]) {
        const answer = await rawAnswer(t.origin, `GET ${path} HTTP/1.1\r\nHost: ${hosts[0]}\r\nhost: ${hosts[1]}\r\nConnection: close\r\n\r\n`);
        assert.equal(answer.status, 400, path);
        assert.equal(answer.headers['content-type'], 'application/json');
        assert.equal(answer.body, '{"detail":"More than one Host header."}');
      }
    });
  }

  test('Expect: 999-foo: 417 in JSON with the usual headers, not node\'s empty answer', async () => {
    const answer = await get('/api/v1/', newClient(), { Expect: '999-foo' });
    assert.equal(answer.status, 417);
    assert.equal(answer.body, '{"detail":"Expectation failed: only \\"Expect: 100-continue\\" is understood."}');
    assertApiHeaders(answer, '417');
    assert.ok(answer.headers['x-request-id']);
  });

  test('Expect: 100-continue still gets 100 Continue, then the answer', async () => {
    const text = await rawRequest(t.origin, `GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    assert.match(text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  });
});
