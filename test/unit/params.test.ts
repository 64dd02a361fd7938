import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../src/errors.js';
import { choosePage, parseFormat, parsePage, parsePageSize, parsePythonInt, parseRecordId } from '../../src/http/api/params.js';

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

describe('choosePage', () => {
  const cases = [
    { page: '1', size: 20, count: 0, expected: { offset: 0, page: 1, lastPage: 1 } },
    { page: '1', size: 20, count: 45, expected: { offset: 0, page: 1, lastPage: 3 } },
    { page: '3', size: 20, count: 45, expected: { offset: 40, page: 3, lastPage: 3 } },
    { page: 'last', size: 20, count: 45, expected: { offset: 40, page: 3, lastPage: 3 } },
    { page: 'last', size: 20, count: 0, expected: { offset: 0, page: 1, lastPage: 1 } },
    { page: 'last', size: 5, count: 45, expected: { offset: 40, page: 9, lastPage: 9 } },
    { page: '4', size: 20, count: 45, expected: null },
    { page: '2', size: 20, count: 0, expected: null },
    { page: '0', size: 20, count: 45, expected: null },
    { page: '-1', size: 20, count: 45, expected: null },
    { page: 'x', size: 20, count: 45, expected: null },
    { page: '99999999999999999999', size: 20, count: 45, expected: null },
  ];
  for (const c of cases) {
    test(`page ${c.page} of ${c.count} by ${c.size}`, () => {
      const chosen = choosePage({ page: parsePage(c.page), pageSize: c.size })(c.count);
      const actual = chosen && { offset: chosen.slice.offset, page: chosen.context.page, lastPage: chosen.context.lastPage };
      assert.deepEqual(actual, c.expected);
      if (chosen) assert.equal(chosen.slice.limit, c.size);
    });
  }
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
  const cases: [string, number | null][] = [['1', 1], ['366', 366], ['007', 7], ['0', 0], ['-1', null], ['1.0', null], ['x', null], ['9'.repeat(17), null]];
  for (const [input, expected] of cases) test(input, () => assert.equal(parseRecordId(input), expected));
});
