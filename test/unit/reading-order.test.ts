import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { paginate } from '../../src/pagination.js';
import { listsFewer, readingOrder } from '../../src/store/read-plans.js';

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

// Rows read for a page: all `count` matches when listed, or, walking the `listed` records in
// id order with the matches spread evenly, listed / count rows per match up to `reach`.
describe('listsFewer: all matches listed when fewer than an even walk would pass', () => {
  const cases = [
    { count: 2558, reach: 20, listed: 400_000, expected: true, why: '"fourn" at scale 100: 2,558 rows against a walk of 3,128' },
    { count: 8682, reach: 20, listed: 400_000, expected: false, why: '"synagogue": 8,682 against 922' },
    { count: 1970, reach: 20, listed: 102_886, expected: false, why: '"chapel street" among documents: 1,970 against 1,045' },
    { count: 788, reach: 100, listed: 400_000, expected: true, why: 'a map view\'s 788 footprints, a page of 100' },
    { count: 20, reach: 20, listed: 20, expected: false, why: 'every record matches: the walk reads just the page' },
    { count: 2000, reach: 2000, listed: 2000, expected: false, why: 'equal: the walk' },
  ];
  for (const c of cases) {
    test(c.why, () => assert.equal(listsFewer(c.count, c.reach, c.listed), c.expected));
  }
});
