import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { paginate, type PageRequest, type PageSlice } from '../../src/pagination.js';

// Expected slices worked out by hand from Django's Paginator: pages of `pageSize` records,
// an empty collection has one (empty) page, page n starts at (n - 1) * pageSize.
describe('paginate: Django\'s paginator', () => {
  const cases: { request: PageRequest; count: number; expected: PageSlice | null; why: string }[] = [
    { request: { page: 1, pageSize: 20 }, count: 0, expected: { page: 1, lastPage: 1, offset: 0, limit: 20 }, why: 'empty collection: page 1 exists' },
    { request: { page: 'last', pageSize: 20 }, count: 0, expected: { page: 1, lastPage: 1, offset: 0, limit: 20 }, why: 'last of an empty collection is page 1' },
    { request: { page: 2, pageSize: 20 }, count: 0, expected: null, why: 'empty collection: no page 2' },
    { request: { page: 1, pageSize: 20 }, count: 45, expected: { page: 1, lastPage: 3, offset: 0, limit: 20 }, why: 'first page' },
    { request: { page: 3, pageSize: 20 }, count: 45, expected: { page: 3, lastPage: 3, offset: 40, limit: 20 }, why: 'a short last page' },
    { request: { page: 'last', pageSize: 20 }, count: 45, expected: { page: 3, lastPage: 3, offset: 40, limit: 20 }, why: 'last' },
    { request: { page: 'last', pageSize: 5 }, count: 45, expected: { page: 9, lastPage: 9, offset: 40, limit: 5 }, why: 'last, exactly full' },
    { request: { page: 4, pageSize: 20 }, count: 45, expected: null, why: 'past the end' },
    { request: { page: 3, pageSize: 20 }, count: 40, expected: null, why: 'past the end when the last page is full' },
    { request: { page: 0, pageSize: 20 }, count: 45, expected: null, why: 'page 0' },
    { request: { page: -1, pageSize: 20 }, count: 45, expected: null, why: 'a negative page' },
    { request: { page: null, pageSize: 20 }, count: 45, expected: null, why: 'not a page number' },
    { request: { page: 1e20, pageSize: 20 }, count: 45, expected: null, why: 'beyond safe integers' },
    { request: { page: 45, pageSize: 1 }, count: 45, expected: { page: 45, lastPage: 45, offset: 44, limit: 1 }, why: 'page_size 1' },
    { request: { page: 1, pageSize: 100 }, count: 100, expected: { page: 1, lastPage: 1, offset: 0, limit: 100 }, why: 'page_size 100, one full page' },
    { request: { page: 2, pageSize: 100 }, count: 101, expected: { page: 2, lastPage: 2, offset: 100, limit: 100 }, why: 'page_size 100, one record more' },
  ];
  for (const c of cases) {
    test(`${c.why}: page ${c.request.page} of ${c.count} by ${c.request.pageSize}`, () => assert.deepEqual(paginate(c.request, c.count), c.expected));
  }
});
