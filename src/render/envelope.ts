// The list envelope and the page links in it.
import { PARAM_PAGE } from '../constants.js';
import type { PagePosition } from '../pagination.js';
import { buildUrl, replaceQueryParam, type QueryPairs } from './links.js';

/** Where a page's links point: the absolute base, the path and the request's own query. */
export interface PageLinkContext {
  baseUrl: string;
  path: string;
  query: QueryPairs;
}

export function renderEnvelope<R>(count: number, position: PagePosition, links: PageLinkContext, results: R) {
  return {
    count,
    next: position.page < position.lastPage ? pageLink(links, position.page + 1) : null,
    previous: position.page > 1 ? pageLink(links, position.page - 1) : null,
    results,
  };
}

/** Page 1's link drops `page` altogether, as the original did. */
export function pageLink(links: PageLinkContext, page: number): string {
  const query = replaceQueryParam(links.query, PARAM_PAGE, page === 1 ? null : String(page));
  return buildUrl(links.baseUrl, links.path, query);
}
