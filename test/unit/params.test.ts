import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../src/errors.js';
import { parseFormat, parsePage, parsePageSize, parsePythonInt, parseRecordId } from '../../src/http/api/params.js';

describe('parsePythonInt', () => {
  const cases: [string, number | null][] = [
    ['1', 1], [' 2 ', 2], ['+3', 3], ['-4', -4], ['1_000', 1000], ['007', 7],
    ['', null], ['1.0', null], ['1e3', null], ['abc', null], ['1__0', null], ['_1', null], ['\0', null],
  ];
  for (const [input, expected] of cases) test(JSON.stringify(input), () => assert.equal(parsePythonInt(input), expected));
});

describe('page_size: 1..100, above 100 is 100, invalid falls back to 20', () => {
  const cases: [string | undefined, number][] = [
    [undefined, 20], ['1', 1], ['50', 50], ['100', 100], ['101', 100], ['1000000', 100],
    ['0', 20], ['-1', 20], ['abc', 20], ['1e9', 20], ['', 20],
  ];
  for (const [input, expected] of cases) test(String(input), () => assert.equal(parsePageSize(input), expected));
});

describe("page: a number as Python's int() reads it, or last; absent is 1", () => {
  const cases: [string | undefined, number | 'last' | null][] = [
    [undefined, 1], ['1', 1], [' 2 ', 2], ['last', 'last'], ['0', 0], ['-1', -1], ['x', null], ['', null], ['LAST', null], ['99999999999999999999', 1e20],
  ];
  for (const [input, expected] of cases) test(String(input), () => assert.equal(parsePage(input), expected));
});

describe('format', () => {
  test('json and api are accepted, absence is null', () => {
    assert.equal(parseFormat([['format', 'json']]), 'json');
    assert.equal(parseFormat([['format', 'xml'], ['format', 'api']]), 'api');
    assert.equal(parseFormat([]), null);
  });
  test('anything else is 404', () => {
    assert.throws(() => parseFormat([['format', 'xml']]), (e) => e instanceof ApiError && e.status === 404);
  });
});

describe('record ids', () => {
  // Past PostgreSQL's integer (2147483647) no record has the id: null, a 404 on both stores.
  const cases: [string, number | null][] = [
    ['1', 1], ['366', 366], ['007', 7], ['0', 0], ['-1', null], ['1.0', null], ['x', null], ['9'.repeat(17), null],
    ['2147483647', 2147483647], ['2147483648', null], ['99999999999', null],
  ];
  for (const [input, expected] of cases) test(input, () => assert.equal(parseRecordId(input), expected));
});
