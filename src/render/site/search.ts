// The site's search results (/search/): the same search as /api/v1/features/, rendered by the
// server, a page at a time: a short card per building and where this page's results are.
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { SITE_PATHS } from '../../site/paths.js';
import { SEARCH_PAGE_SIZE, searchQuery, type SiteSearch } from '../../site/search.js';
import type { SearchCard } from '../../store/site-plans.js';
import { drawFootprints, polygonsOf, type Polygons } from '../../pages/footprint.js';
import { featureName, recordHref } from './record.js';
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { SITE_PAGES } from './templates.js';

export interface SearchResult {
  card: SearchCard;
  /** Its first picture's URL. */
  thumbnail: string | null;
  /** Its categories' names, in its order. */
  categories: string[];
}

export interface SearchResults {
  count: number;
  results: SearchResult[];
  /** The names of the category and street asked for, when they are. */
  categoryName: string | null;
}

const number = (n: number) => n.toLocaleString('en-GB');

/** Each result's footprint when its card has it (a small one), else its box: at the scale of a page of results most footprints are their box anyway. */
function resultShapes(results: SearchResults): Polygons[] {
  return results.results.map(({ card }): Polygons => {
    if (card.geometry !== null) return polygonsOf(card.geometry);
    const [w, s, e, n] = card.box;
    return [[[[w, s], [e, s], [e, n], [w, n], [w, s]]]];
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
  return SITE_PAGES.render('search', {
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
    results: results.results.map(({ card, thumbnail, categories }) => ({
      href: recordHref(at, 'features', card.id),
      title: featureName({ [F.name]: card[F.name], [F.address]: card.address }),
      thumbnail,
      facts: [card[F.name] ? card.address : null, card.current === null ? null : String(card.current), categories.join(', ') || null].filter((x) => x !== null).join(' · '),
    })),
    prevHref: search.page > 1 ? action + searchQuery(search, { page: search.page - 1 }) : null,
    nextHref: search.page < last ? action + searchQuery(search, { page: search.page + 1 }) : null,
    pageText: `Page ${search.page} of ${number(last)}`,
  });
}
