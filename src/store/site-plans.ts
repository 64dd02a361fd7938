// The visitors' site's own reads (src/http/site/), written once for both stores.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import { LIST_SEPARATOR } from '../catalogue/collections.js';
import { paginate, type PagePosition, type PageRequest } from '../pagination.js';
import { binder, type Dialect } from './dialect.js';
import { hasFilters, type Filters } from './filters.js';
import { matchingPagePlan, metaValue, versionPlan, type Plan } from './read-plans.js';

export interface YearCounts {
  version: number;
  /** Each year some feature is of, ascending, with how many are of it. */
  years: { year: number; count: number }[];
}

/** One read (the year index, grouped) for the home page's period bands and its first and last year. */
export function* yearCountsPlan(): Plan<YearCounts> {
  const version = yield* versionPlan();
  const rows = (yield {
    sql: 'SELECT f.current AS year, count(*) AS n FROM features f WHERE f.current IS NOT NULL GROUP BY f.current ORDER BY f.current',
    params: [],
  }) as { year: number | string; n: number | string }[];
  return { version, years: rows.map((r) => ({ year: Number(r.year), count: Number(r.n) })) };
}

/** A search result as the site's search page shows it: no attachments, and its footprint only when small. */
export interface SearchCard {
  id: number;
  [F.name]: string | null;
  address: string;
  current: number | null;
  categoryIds: number[];
  firstImage: string | null;
  box: [number, number, number, number];
  /** The footprint's GeoJSON text when at most SEARCH_FOOTPRINT_CHARS, else null (drawn as its box). */
  geometry: string | null;
}

export interface SearchCards {
  version: number;
  count: number;
  page: { cards: SearchCard[]; position: PagePosition } | null;
}

/**
 * A footprint sent with its card at most this long: a page of 20 is then at most 200 kB of
 * text to parse on the event loop (a page of detailed footprints would be 1.3 MB, which on
 * PostgreSQL the driver parses there too), and the rest are drawn as their boxes.
 */
export const SEARCH_FOOTPRINT_CHARS = 10_000;

/**
 * The site's search (/search/): the same matches, count and page as /api/v1/features/ (the
 * list's own matching: read-plans.ts matchingPagePlan), read as cards.
 */
export function* searchCardsPlan(request: PageRequest, filters: Filters, dialect: Dialect): Plan<SearchCards> {
  const version = yield* versionPlan();
  let count: number;
  let where: string;
  let params: unknown[];
  let position: PagePosition;
  if (hasFilters(filters)) {
    const matched = yield* matchingPagePlan('features', request, filters, dialect);
    count = matched.count;
    if (matched.page === null) return { version, count, page: null };
    params = matched.page.params;
    position = matched.page.slice;
    where = `f.id IN (${matched.page.ids})`;
  } else {
    count = Number((yield* metaValue('count.features')) ?? 0);
    const slice = paginate(request, count);
    if (!slice) return { version, count, page: null };
    const { bind, params: own } = binder();
    where = `f.position >= ${bind(slice.offset)} AND f.position < ${bind(slice.offset + slice.limit)}`;
    params = own;
    position = slice;
  }
  const { from, columns } = dialect.featureBoxes('f');
  const rows = (yield {
    sql: `SELECT f.id, f.${F.name}, f.address, f.current, f.category_list, f.first_image, ${columns},
      CASE WHEN length(f.geometry) <= ${SEARCH_FOOTPRINT_CHARS} THEN f.geometry END AS geometry
      FROM ${from} WHERE ${where} ORDER BY f.position`,
    params,
    adHoc: true,
  }) as CardRow[];
  return { version, count, page: { cards: rows.map(toCard), position: { page: position.page, lastPage: position.lastPage } } };
}

type CardRow = {
  id: number | string; [F.name]: string | null; address: string; current: number | string | null; category_list: string; first_image: string | null;
  min_x: number; min_y: number; max_x: number; max_y: number; geometry: string | null;
};

function toCard(r: CardRow): SearchCard {
  return {
    id: Number(r.id), [F.name]: r[F.name], address: r.address, current: r.current === null ? null : Number(r.current),
    categoryIds: r.category_list === '' ? [] : r.category_list.split(LIST_SEPARATOR).map(Number),
    firstImage: r.first_image, box: [Number(r.min_x), Number(r.min_y), Number(r.max_x), Number(r.max_y)], geometry: r.geometry,
  };
}
