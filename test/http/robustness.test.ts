import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rawRequest, request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

const HOSTILE = [
  '/api/v1/features/?page=99999999999999999999',
  '/api/v1/features/?page=1e3',
  '/api/v1/features/?page=%00',
  '/api/v1/features/?page=%C0%AF',
  '/api/v1/features/?page=%',
  '/api/v1/features/?page_size=1e9',
  '/api/v1/features/?page_size=99999999999999999999999',
  '/api/v1/features/?page=1&page=2&page=last&page_size=5&page_size=7',
  `/api/v1/features/?q=${'x'.repeat(8192)}`,
  `/api/v1/features/?${'a=1&'.repeat(2000)}`,
  '/api/v1/features/?format=api&format=json',
  '/api/v1/features/?%ZZ=%ZZ&&&=&',
  '/api/v1//features/',
  '//api/v1/features/',
  '/api/v1/features/../images/',
  '/api/v1/%2e%2e/features/',
  '/api/v1/features/%00/',
  '/api/v1/features/%C0%AF/',
  '/api/v1/features/%/',
  `/api/v1/features/${'9'.repeat(500)}/`,
  '/api/v1/images/?page=-0',
  '/media/../package.json',
];

describe('hostile input: a 4xx JSON answer or the normal page, never a 500, never a hang', () => {
  for (const path of HOSTILE) {
    test(path.length > 80 ? `${path.slice(0, 80)}…` : path, async () => {
      const answer = await request(t.origin, path);
      assert.ok(answer.status === 200 || answer.status === 301 || (answer.status >= 400 && answer.status < 500), `${answer.status}`);
      if (answer.status !== 301) {
        assert.equal(answer.headers['content-type'], 'application/json');
        const body = answer.json();
        if (answer.status >= 400) assert.equal(typeof body.detail, 'string');
      }
    });
  }

  test('a server keeps answering after all of that', async () => {
    const answer = await request(t.origin, '/api/v1/features/');
    assert.equal(answer.status, 200);
  });
});

describe('broken HTTP', () => {
  test('bad request syntax gets a JSON 400 and the connection closes', async () => {
    const answer = await rawRequest(t.origin, 'GARBAGE\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.ok(answer.endsWith('{"detail":"Bad request."}'));
  });

  test('oversized headers get a JSON 431', async () => {
    const answer = await rawRequest(t.origin, `GET /api/v1/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.ok(answer.endsWith('{"detail":"Request headers too large."}'));
  });
});
