// Query string → typed values or an ApiError, with the original's (Django REST framework)
// rules: repeated parameters take their last value; an invalid page_size falls back to
// the default; an invalid page is a 404.
import {
  DEFAULT_PAGE_SIZE,
  FORMAT_VALUES,
  LAST_PAGE,
  MAX_PAGE_SIZE,
  PARAM_FORMAT,
  PARAM_PAGE,
  PARAM_PAGE_SIZE,
} from '../../constants.js';
import type { QueryPairs } from '../../render/links.js';
import type { PageRequest } from '../../pagination.js';
import { ERRORS } from '../../errors.js';
import { STORED_INTEGER } from '../../store/stored-values.js';

/** A list request's query: the page it asks for, its format, and every pair (for filters and links). */
export interface ListQuery extends PageRequest {
  pairs: QueryPairs;
  format: string | null;
}

export function queryString(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

/** Parse a raw query string the way Python's parse_qsl(keep_blank_values=True) does. */
export function parseQueryPairs(rawQuery: string): [string, string][] {
  return [...new URLSearchParams(rawQuery)];
}

/** A request URL's query as pairs. */
export const parseQuery = (url: string): [string, string][] => parseQueryPairs(queryString(url));

/** Repeated parameters: the last value wins, as in Django's QueryDict. */
export function lastValue(pairs: QueryPairs, key: string): string | undefined {
  return pairs.findLast(([k]) => k === key)?.[1];
}

/** Python's int(): surrounding white space, a sign, digits with single underscores between. */
export function parsePythonInt(value: string): number | null {
  const [, sign, digits] = /^\s*([+-]?)(\d+(?:_\d+)*)\s*$/.exec(value) ?? [];
  if (digits === undefined) return null;
  const magnitude = Number(digits.replaceAll('_', ''));
  return sign === '-' ? -magnitude : magnitude;
}

export function parsePageSize(value: string | undefined): number {
  const size = value === undefined ? null : parsePythonInt(value);
  return size === null || size < 1 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE);
}

export function parsePage(value: string | undefined): PageRequest['page'] {
  if (value === undefined) return 1;
  if (value === LAST_PAGE) return LAST_PAGE;
  return parsePythonInt(value);
}

/** `format=json` and `format=api` both give JSON; any other value is not found. */
export function parseFormat(pairs: QueryPairs): string | null {
  const format = lastValue(pairs, PARAM_FORMAT);
  if (format === undefined) return null;
  if (!FORMAT_VALUES.includes(format)) throw ERRORS.notFound();
  return format;
}

export function parseListQuery(url: string): ListQuery {
  const pairs = parseQuery(url);
  return {
    pairs,
    format: parseFormat(pairs),
    page: parsePage(lastValue(pairs, PARAM_PAGE)),
    pageSize: parsePageSize(lastValue(pairs, PARAM_PAGE_SIZE)),
  };
}

/** A detail path's id: digits only, at most the largest id a store holds (else no record has it: PostgreSQL would fail on it). */
export function parseRecordId(value: string): number | null {
  if (!/^\d{1,16}$/.test(value)) return null;
  const id = Number(value);
  return id <= STORED_INTEGER.max ? id : null;
}
