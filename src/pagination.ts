// Paging with the original's rules (Django's Paginator): a pure function from what a list
// request asks for and the size of what it lists to the records to read, or to "no such
// page" (a 404). The store calls it once it knows the count, inside the read that fetches
// the rows, so that count and rows come from one catalogue version.
import { LAST_PAGE } from './constants.js';

/** What a list request asks for, before the size of the collection is known. */
export interface PageRequest {
  /** A page number, `last`, or null when the query's value is not a page number at all. */
  page: number | typeof LAST_PAGE | null;
  /** Records a page, already within 1..MAX_PAGE_SIZE (http/api/params.ts). */
  pageSize: number;
}

/** Where a page sits among the pages of its collection: what `next` and `previous` need. */
export interface PagePosition {
  page: number;
  lastPage: number;
}

/** A page that exists: its position and its records, a 0-based offset into ascending id order. */
export interface PageSlice extends PagePosition {
  offset: number;
  limit: number;
}

/** An empty collection still has page 1; anything outside 1..last is refused (null). */
export function paginate(request: PageRequest, count: number): PageSlice | null {
  const lastPage = Math.max(1, Math.ceil(count / request.pageSize));
  const page = request.page === LAST_PAGE ? lastPage : request.page;
  if (page === null || !Number.isSafeInteger(page) || page < 1 || page > lastPage) return null;
  return { page, lastPage, offset: (page - 1) * request.pageSize, limit: request.pageSize };
}
