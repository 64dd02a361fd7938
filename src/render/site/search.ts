// The site's search results (/search/): the same search as /api/v1/features/, rendered by the
// server, a page at a time: a short card per building and where this page's results are.
import { SITE_PATHS } from '../../site/paths.js';
import { SEARCH_PAGE_SIZE, searchQuery, type SiteSearch } from '../../site/search.js';
import type { FeatureRow } from '../../store/store.js';
import { drawFootprints, polygonsOf, type Polygons } from '../ogc/html/footprint.js';
import { geometryText } from '../ogc/html/pages.js';
import { renderPage } from '../ogc/html/templates.js';
import { featureName, recordHref } from './record.js';
import { homeCrumb, page, type PageAt } from './shell.js';

export interface SearchResults {
  count: number;
  rows: FeatureRow[];
  /** Each result's first picture's URL, by feature id. */
  thumbnails: ReadonlyMap<number, string>;
  /** Each result's footprint's box, by feature id. */
  boxes: ReadonlyMap<number, readonly [number, number, number, number]>;
  /** The names of the category and street asked for, when they are. */
  categoryName: string | null;
}

const number = (n: number) => n.toLocaleString('en-GB');

/**
 * The footprints' text parsed at most for the results' map, on the event loop: a page of
 * detailed footprints is 1.3 MB (tens of ms). The results past it are drawn as their boxes,
 * which at the scale of a page of results most footprints are anyway.
 */
export const MAP_FOOTPRINT_BYTES = 200_000;

function resultShapes(results: SearchResults): Polygons[] {
  let budget = MAP_FOOTPRINT_BYTES;
  return results.rows.flatMap((f): Polygons[] => {
    const text = geometryText(f.geometry);
    if (text !== null && text.length <= budget) {
      budget -= text.length;
      return [polygonsOf(text)];
    }
    const box = results.boxes.get(f.id);
    if (box === undefined) return [];
    const [w, s, e, n] = box;
    return [[[[[w, s], [e, s], [e, n], [w, n], [w, s]]]]];
  });
}

function narrowedBy(search: SiteSearch, categoryName: string | null, action: string) {
  const narrowed: { label: string; without: string }[] = [];
  if (search.category !== null) narrowed.push({ label: `in the category ${categoryName ?? `#${search.category}`}`, without: action + searchQuery(search, { category: null, page: null }) });
  if (search.street !== null) narrowed.push({ label: `on ${search.street}`, without: action + searchQuery(search, { street: null, page: null }) });
  if (search.from !== null || search.to !== null) {
    const years = search.from !== null && search.to !== null ? `from ${search.from} to ${search.to}` : search.from !== null ? `from ${search.from}` : `up to ${search.to}`;
    narrowed.push({ label: years, without: action + searchQuery(search, { from: null, to: null, page: null }) });
  }
  return narrowed;
}

export function htmlSearch(at: PageAt, search: SiteSearch, results: SearchResults): string {
  const action = `${at.baseUrl}${SITE_PATHS.search}`;
  const last = Math.max(1, Math.ceil(results.count / SEARCH_PAGE_SIZE));
  const found = results.count === 1 ? '1 building or place' : `${number(results.count)} buildings and places`;
  const summary = search.q === '' ? `${found}.` : `${found} match “${search.q}”.`;
  const heading = search.q === '' ? 'Search' : `Search: ${search.q}`;
  return renderPage('search', {
    page: page(at, {
      title: heading, heading,
      description: `${summary} Search ${at.site.title} by name, address, street, category or year.`,
      canonical: action + searchQuery(search),
      alternates: [], crumbs: [homeCrumb(at)],
    }),
    action,
    q: search.q,
    hidden: (['category', 'street', 'from', 'to'] as const).filter((n) => search[n] !== null).map((n) => ({ name: n, value: String(search[n]) })),
    narrowed: narrowedBy(search, results.categoryName, action),
    summary: last > 1 ? `${summary} Page ${search.page} of ${number(last)}.` : summary,
    matchesMap: drawFootprints(resultShapes(results)),
    start: (search.page - 1) * SEARCH_PAGE_SIZE + 1,
    results: results.rows.map((f) => ({
      href: recordHref(at, 'features', f.id),
      title: featureName(f),
      thumbnail: results.thumbnails.get(f.id) ?? null,
      facts: [f.b_name ? f.address : null, f.current === null ? null : String(f.current), f.categories.map((c) => c.name).join(', ') || null].filter((x) => x !== null).join(' · '),
    })),
    prevHref: search.page > 1 ? action + searchQuery(search, { page: search.page - 1 }) : null,
    nextHref: search.page < last ? action + searchQuery(search, { page: search.page + 1 }) : null,
    pageText: `Page ${search.page} of ${number(last)}`,
  });
}
