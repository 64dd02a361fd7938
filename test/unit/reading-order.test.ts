import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { paginate } from '../../src/pagination.js';
import { readingOrder } from '../../src/store/read-plans.js';

// Which matches a filtered page reads, worked out by hand: rows [offset, offset + limit) of
// `count` in position order; past the middle, the same rows counted from the last match.
describe('readingOrder: a filtered page read from the nearer end', () => {
  const cases = [
    { page: 1, pageSize: 20, count: 45, expected: { limit: 20, offset: 0, fromEnd: false }, why: 'the first page, from the start' },
    { page: 3, pageSize: 20, count: 45, expected: { limit: 5, offset: 0, fromEnd: true }, why: 'a short last page: its 5 rows are the last 5' },
    { page: 2, pageSize: 20, count: 45, expected: { limit: 20, offset: 5, fromEnd: true }, why: 'rows 20–39 of 45: 5 after them, 20 before' },
    { page: 2, pageSize: 20, count: 60, expected: { limit: 20, offset: 20, fromEnd: false }, why: 'the exact middle: 20 before, 20 after, from the start' },
    { page: 1, pageSize: 20, count: 7, expected: { limit: 20, offset: 0, fromEnd: false }, why: 'one short page' },
    { page: 2567, pageSize: 20, count: 51331, expected: { limit: 11, offset: 0, fromEnd: true }, why: 'the last of 51,331' },
    { page: 2566, pageSize: 20, count: 51331, expected: { limit: 20, offset: 11, fromEnd: true }, why: 'the one before it' },
  ];
  for (const c of cases) {
    test(c.why, () => {
      const slice = paginate({ page: c.page, pageSize: c.pageSize }, c.count);
      assert.ok(slice);
      assert.deepEqual(readingOrder(slice, c.count), c.expected);
    });
  }
});
