// The table of every error (src/errors.ts): each entry's bytes pinned here as written by hand
// (the original's sentences, and the framework's where they used to pass through), its status
// a real error status, its description in the OpenAPI document, no sentence used twice.
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { describe, test } from 'node:test';
import { ApiError, ERROR_ENTRIES, ERRORS, REASON_PHRASES, errorBody } from '../../src/errors.js';
import { clientRefusal } from '../../src/http/protocol/client-errors.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { docPages } from '../support/docs.js';

/** Each entry's status and sentence, as clients have always seen them. */
const EXPECTED: Record<keyof typeof ERRORS, [number, string]> = {
  badRequest: [400, 'Bad request.'],
  invalidHost: [400, 'Invalid host header.'],
  moreThanOneHost: [400, 'More than one Host header.'],
  invalidTarget: [400, 'Invalid request target: send a path such as /api/v1/.'],
  invalidFilter: [400, 'Invalid author: expected an id (a whole number).'],
  nullCharacter: [400, 'Invalid street: null characters are not allowed.'],
  mediaHasNoDate: [400, 'Invalid date_range: media records have no date to filter on.'],
  invalidTile: [400, 'Invalid tile: z must be an integer from 0 to 22, x and y integers from 0 to 2^z - 1, as in /tiles/features/{z}/{x}/{y}.mvt.'],
  emptyJsonBody: [400, "Body cannot be empty when content-type is set to 'application/json'"],
  invalidJsonBody: [400, "Body is not valid JSON but content-type is set to 'application/json'"],
  bodyLengthMismatch: [400, 'Request body size did not match Content-Length'],
  queryWithoutContentType: [400, "Method 'QUERY' must provide a 'Content-Type' header."],
  permissionDenied: [403, 'You do not have permission to perform this action.'],
  outsideFolder: [403, 'Forbidden'],
  notFound: [404, 'Not found.'],
  invalidPage: [404, 'Invalid page.'],
  methodNotAllowed: [405, 'Method "POST" not allowed.'],
  requestTimeout: [408, 'Request timed out.'],
  preconditionFailed: [412, 'Precondition Failed'],
  bodyTooLarge: [413, 'Request body is too large'],
  urlTooLong: [414, 'Request URL too long.'],
  unsupportedMediaType: [415, 'Unsupported Media Type'],
  rangeNotSatisfiable: [416, 'Range Not Satisfiable'],
  expectationFailed: [417, 'Expectation failed: only "Expect: 100-continue" is understood.'],
  throttled: [429, 'Request was throttled. Expected available in 60 seconds.'],
  headersTooLarge: [431, 'Request headers too large.'],
  serverError: [500, 'A server error occurred.'],
  serviceUnavailable: [503, 'Service unavailable.'],
  busy: [503, 'Too many downloads at once: try again in a moment.'],
  mapPageNotBuilt: [503, 'The map page is not built: run npm run build.'],
};

/** Every string anywhere in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(strings);
}

describe('the table of errors', () => {
  test('each entry: its status and its sentence (with example arguments), as pinned above', () => {
    const actual = Object.fromEntries(Object.entries(ERRORS).map(([name, e]) => [name, [e.status, e.example]]));
    assert.deepEqual(actual, EXPECTED);
  });

  test('a builder makes the error of its entry, with its arguments in the sentence', () => {
    const cases: [ApiError, number, string][] = [
      [ERRORS.notFound(), 404, 'Not found.'],
      [ERRORS.methodNotAllowed('CONNECT'), 405, 'Method "CONNECT" not allowed.'],
      [ERRORS.invalidFilter('bbox', 'four numbers'), 400, 'Invalid bbox: expected four numbers.'],
      [ERRORS.throttled(1), 429, 'Request was throttled. Expected available in 1 second.'],
      [ERRORS.throttled(2), 429, 'Request was throttled. Expected available in 2 seconds.'],
    ];
    for (const [error, status, detail] of cases) {
      assert.ok(error instanceof ApiError);
      assert.deepEqual([error.status, errorBody(error)], [status, { detail }]);
    }
  });

  test('every status is a client or server error with the reason phrase node writes for it', () => {
    for (const [status, phrase] of Object.entries(REASON_PHRASES)) {
      assert.ok(Number(status) >= 400 && Number(status) < 600, status);
      assert.equal(phrase, STATUS_CODES[status], status);
    }
    for (const entry of ERROR_ENTRIES) assert.ok(entry.status in REASON_PHRASES, entry.example);
  });

  test('no two entries share a sentence or a description', () => {
    const sentences = ERROR_ENTRIES.map((e) => e.example);
    const descriptions = ERROR_ENTRIES.map((e) => e.when);
    assert.equal(new Set(sentences).size, sentences.length);
    assert.equal(new Set(descriptions).size, descriptions.length);
  });

  test("every entry's description and sentence are in the OpenAPI document, with or without the rate limit", () => {
    for (const rateLimited of [true, false]) {
      const text = strings(buildOpenApiDocument({ rateLimited })).join('\n');
      for (const entry of ERROR_ENTRIES) {
        assert.ok(text.includes(entry.when), entry.when);
        assert.ok(text.includes(entry.example), entry.example);
      }
    }
  });
});

/** The status and sentence of every error README and docs/ quote: `404 {"detail": "…"}`, `404` `…`, `404 Not found.`. */
function quotedErrors(): [number, string][] {
  const docs = docPages().map((page) => page.text).join('\n\n');
  const quoted = [
    ...[...docs.matchAll(/`(\d{3}) \{"detail": ?"((?:[^"\\]|\\.)*)"\}`/g)].map((m): [string, string] => [m[1] ?? '', String(JSON.parse(`"${m[2]}"`))]),
    ...[...docs.matchAll(/`(\d{3})` `([^`]+)`/g), ...docs.matchAll(/`(\d{3}) ([A-Z][^`{]*)`/g)].map((m): [string, string] => [m[1] ?? '', m[2] ?? '']),
  ];
  // An elided sentence (`Method "…" not allowed.`) stands for many.
  return quoted.map(([status, detail]): [number, string] => [Number(status), detail]).filter(([status, detail]) => status >= 400 && !detail.includes('…'));
}

test('every error README and docs/ quote is an entry of the table, status and sentence', () => {
  const entries = new Set(ERROR_ENTRIES.map((e) => `${e.status} ${e.example}`));
  const quoted = quotedErrors();
  // 23 when README moved into docs/: fewer means a quote was lost, or no longer found.
  assert.ok(quoted.length >= 23, `${quoted.length} quoted`);
  for (const [status, detail] of quoted) assert.ok(entries.has(`${status} ${detail}`), `${status} ${detail}`);
});

describe('clientRefusal: errors raised by Fastify or a plugin, as entries of the table', () => {
  const cases: [{ code?: string; statusCode?: number }, [number, string] | null][] = [
    [{ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }, [415, 'Unsupported Media Type']],
    [{ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }, [413, 'Request body is too large']],
    [{ code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', statusCode: 400 }, [400, 'Request body size did not match Content-Length']],
    [{ code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }, [400, "Body cannot be empty when content-type is set to 'application/json'"]],
    [{ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }, [400, "Body is not valid JSON but content-type is set to 'application/json'"]],
    [{ code: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE', statusCode: 400 }, [400, "Method 'QUERY' must provide a 'Content-Type' header."]],
    [{ statusCode: 403 }, [403, 'Forbidden']],
    [{ statusCode: 412 }, [412, 'Precondition Failed']],
    [{ statusCode: 416 }, [416, 'Range Not Satisfiable']],
    // A client error the table does not know (a request body cut off: node's "aborted").
    [{ code: 'ECONNRESET', statusCode: 400 }, [400, 'Bad request.']],
    [{ statusCode: 409 }, [400, 'Bad request.']],
    [{ statusCode: 500 }, null],
    [{ statusCode: 302 }, null],
    [{}, null],
  ];
  for (const [error, expected] of cases) {
    test(`${error.code ?? '(no code)'} ${error.statusCode ?? '(no status)'}`, () => {
      const refusal = clientRefusal(error);
      assert.deepEqual(refusal === null ? null : [refusal.status, refusal.detail], expected);
    });
  }
});
