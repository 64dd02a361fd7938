// The site's search form (/search/): its fields read from the query string, checked with
// sentences a visitor reads, then handed to the API's own filter parser, so that the page
// finds exactly what /api/v1/features/ finds for the same search.
import { DEFAULT_PAGE_SIZE } from '../constants.js';
import { SITE_ERRORS } from '../errors.js';

export interface SiteSearch {
  q: string;
  category: number | null;
  street: string | null;
  from: number | null;
  to: number | null;
  page: number;
}

export const SEARCH_PAGE_SIZE = DEFAULT_PAGE_SIZE;
/** Years as /api/v1/'s year_range reads them. */
const YEAR = /^-?\d{1,4}$/;
const MAX_PAGE = 1_000_000;

/** The fields the form has; anything else in the query (a tracking parameter) is ignored. */
export function readSiteSearch(query: URLSearchParams): SiteSearch {
  const value = (name: string) => (query.get(name) ?? '').trim();
  const year = (name: string, field: string) => {
    const v = value(name);
    if (v === '') return null;
    if (!YEAR.test(v)) throw SITE_ERRORS.invalidSearch(field, 'a year such as 1850');
    return Number(v);
  };
  const whole = (name: string, field: string, max: number) => {
    const v = value(name);
    if (v === '') return null;
    if (!/^\d{1,9}$/.test(v) || Number(v) < 1 || Number(v) > max) throw SITE_ERRORS.invalidSearch(field, `a whole number from 1 to ${max}`);
    return Number(v);
  };
  const search = {
    q: value('q'),
    category: whole('category', 'category', 2_147_483_647),
    street: value('street') || null,
    from: year('from', 'year from'),
    to: year('to', 'year to'),
    page: whole('page', 'page', MAX_PAGE) ?? 1,
  };
  if (search.from !== null && search.to !== null && search.from > search.to) throw SITE_ERRORS.invalidSearch('year range', 'from a year to the same or a later one');
  return search;
}

/** The same search as /api/v1/features/'s query pairs. */
export function apiPairs(search: SiteSearch): [string, string][] {
  const pairs: [string, string][] = [];
  if (search.q !== '') pairs.push(['q', search.q]);
  if (search.category !== null) pairs.push(['categories', String(search.category)]);
  if (search.street !== null) pairs.push(['street', search.street]);
  if (search.from !== null || search.to !== null) pairs.push(['year_range', `${search.from ?? -9999},${search.to ?? 9999}`]);
  return pairs;
}

/** The search's query string with some fields changed (null: left out), for links. */
export function searchQuery(search: SiteSearch, change: Partial<Record<keyof SiteSearch, string | number | null>> = {}): string {
  const fields = { ...search, ...change };
  const params = new URLSearchParams();
  for (const name of ['q', 'category', 'street', 'from', 'to', 'page'] as const) {
    const v = fields[name];
    if (v === null || v === '' || (name === 'page' && v === 1)) continue;
    params.set(name, String(v));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
