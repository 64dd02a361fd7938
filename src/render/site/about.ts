// The site's home for people (/about/): what the catalogue is, a search box, its categories,
// periods and streets to browse, and the ways to its data.
import { isNamedStreet } from '../../catalogue/fields.js';
import { API_PREFIX, DOCS_PREFIX, TILEJSON_PATH } from '../../constants.js';
import { LINKED_PATHS } from '../../pages/paths.js';
import { SITE_PATHS } from '../../site/paths.js';
import { page, type PageAt } from '../../pages/shell.js';
import { SITE_PAGES } from './templates.js';

export interface Period {
  from: number;
  to: number;
  count: number;
}

export interface AboutFacts {
  features: number;
  categories: { id: number; name: string; count: number }[];
  streets: { name: string; count: number }[];
  periods: Period[];
}

const number = (n: number) => n.toLocaleString('en-GB');
const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

/** Bands of years over the catalogue's range: centuries, or shorter where the range is short, so there are several. */
export function periodBands(first: number, last: number): { from: number; to: number }[] {
  for (const size of [100, 50, 25, 10]) {
    const start = Math.floor(first / size) * size;
    const bands = Array.from({ length: Math.floor(last / size) - Math.floor(first / size) + 1 }, (_, i) => ({ from: start + i * size, to: start + (i + 1) * size - 1 }));
    if (bands.length >= 4 || size === 10) return bands;
  }
  return [];
}

export function htmlAbout(at: PageAt, facts: AboutFacts): string {
  const search = `${at.baseUrl}${SITE_PATHS.search}`;
  const streets = facts.streets.filter((s) => isNamedStreet(s.name));
  const items = `${at.baseUrl}${LINKED_PATHS.ogcItems('features')}`;
  return SITE_PAGES.render('about', {
    page: page(at, {
      title: at.site.title, heading: at.site.title, description: at.site.description, canonical: `${at.baseUrl}${SITE_PATHS.about}`,
      alternates: [], crumbs: [], og: { title: at.site.title, description: at.site.description, image: null },
    }),
    description: at.site.description,
    searchHref: search,
    counts: `${plural(facts.features, 'building or place', 'buildings and places')}, in ${plural(facts.categories.length, 'category', 'categories')} along ${plural(streets.length, 'street', 'streets')}.`,
    categories: facts.categories.map((c) => ({ name: c.name, count: number(c.count), href: `${search}?category=${c.id}` })),
    periods: facts.periods.filter((p) => p.count > 0).map((p) => ({ label: `${p.from}–${p.to}`, href: `${search}?from=${p.from}&to=${p.to}` })),
    streets: streets.map((s) => ({ name: s.name, count: number(s.count), href: `${search}?street=${encodeURIComponent(s.name)}` })),
    links: {
      api: `${at.baseUrl}${API_PREFIX}`, apiDocs: `${at.baseUrl}${DOCS_PREFIX}`, ogc: `${at.baseUrl}${LINKED_PATHS.ogcLanding}`, ogcDocs: `${at.baseUrl}${LINKED_PATHS.ogcDocs}`,
      gpkg: `${items}?f=gpkg`, geojson: `${items}?f=geojson`, csv: `${items}?f=csv`, tiles: `${at.baseUrl}${TILEJSON_PATH}`,
    },
  });
}
