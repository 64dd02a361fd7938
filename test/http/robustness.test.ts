import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FEATURE_COUNT } from '../support/catalogue.js';
import { rawRequest, request } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

// The exact answer each hostile input gets, by the original's (DRF's) rules: an invalid or
// out-of-range page is 404 "Invalid page."; an invalid page_size falls back to 20, a huge one
// is cut to 100; repeated parameters take their last value; unknown parameters are ignored;
// a path that names no route is 404 "Not found.", and one whose escapes do not decode to
// UTF-8 (`%C0%AF`, a lone `%`) is 400 "Bad request.". Sent on a socket, byte for byte
// (inject() would rewrite several of these targets).
type Expected = { status: 200; size: number } | { status: number; detail: string };
/** The original's page sizes: 20 by default, at most 100 (written here, not read from src/). */
const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
const LISTED = (size: number): Expected => ({ status: 200, size });
const INVALID_PAGE: Expected = { status: 404, detail: 'Invalid page.' };
const NOT_FOUND: Expected = { status: 404, detail: 'Not found.' };
const BAD_REQUEST: Expected = { status: 400, detail: 'Bad request.' };

const HOSTILE: [string, Expected][] = [
  ['/api/v1/features/?page=99999999999999999999', INVALID_PAGE],
  ['/api/v1/features/?page=1e3', INVALID_PAGE],
  ['/api/v1/features/?page=%00', INVALID_PAGE],
  ['/api/v1/features/?page=%C0%AF', INVALID_PAGE],
  ['/api/v1/features/?page=%', INVALID_PAGE],
  ['/api/v1/features/?page_size=1e9', LISTED(DEFAULT_PAGE_SIZE)],
  ['/api/v1/features/?page_size=99999999999999999999999', LISTED(Math.min(MAX_PAGE_SIZE, FEATURE_COUNT))],
  // page=last with page_size=7: the last of ⌈45 / 7⌉ pages holds what is left after six.
  ['/api/v1/features/?page=1&page=2&page=last&page_size=5&page_size=7', LISTED(FEATURE_COUNT - 7 * Math.floor(FEATURE_COUNT / 7))],
  // 8,212 bytes of target, past MAX_URL_BYTES (8,192 by default).
  [`/api/v1/features/?q=${'x'.repeat(8192)}`, { status: 414, detail: 'Request URL too long.' }],
  [`/api/v1/features/?${'a=1&'.repeat(2000)}`, LISTED(DEFAULT_PAGE_SIZE)],
  ['/api/v1/features/?format=api&format=json', LISTED(DEFAULT_PAGE_SIZE)],
  ['/api/v1/features/?%ZZ=%ZZ&&&=&', LISTED(DEFAULT_PAGE_SIZE)],
  ['/api/v1//features/', NOT_FOUND],
  ['//api/v1/features/', NOT_FOUND],
  ['/api/v1/features/../images/', NOT_FOUND],
  ['/api/v1/%2e%2e/features/', NOT_FOUND],
  ['/api/v1/features/%00/', NOT_FOUND],
  ['/api/v1/features/%C0%AF/', BAD_REQUEST],
  ['/api/v1/features/%/', BAD_REQUEST],
  [`/api/v1/features/${'9'.repeat(500)}/`, NOT_FOUND],
  ['/api/v1/images/?page=-0', INVALID_PAGE],
  ['/media/../package.json', NOT_FOUND],
];

describe('hostile input: its exact answer, never a 500, never a hang', () => {
  for (const [path, expected] of HOSTILE) {
    test(`${path.length > 80 ? `${path.slice(0, 80)}…` : path} → ${expected.status}`, async () => {
      const answer = await request(t.origin, path);
      assert.equal(answer.status, expected.status, answer.text.slice(0, 200));
      assert.equal(answer.headers['content-type'], 'application/json');
      if ('detail' in expected) assert.deepEqual(answer.json(), { detail: expected.detail });
      else {
        assert.equal(answer.json().count, FEATURE_COUNT);
        assert.equal(answer.json().results.features.length, expected.size);
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
