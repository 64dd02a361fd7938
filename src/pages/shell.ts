// What every page for people shares: the site's name and navigation, its breadcrumbs, the
// head's links (style, icon, canonical, alternates, Open Graph, JSON-LD) and the footer's
// licence and data links. Each page builds a PageContext; `page` adds the rest.
import { DOCS_PREFIX } from '../constants.js';
import { CONTRIBUTE_PATHS, SITE_PATHS } from '../site/paths.js';
import { LINKED_PATHS } from './paths.js';
import type { Site } from './site.js';

/** Where a page is made: the request's base URL and the site's texts. */
export interface PageAt {
  readonly baseUrl: string;
  readonly site: Site;
}

export interface Crumb { href: string; label: string }
export interface Alternate { href: string; type: string; title: string }

export interface PageContext {
  title: string;
  heading: string;
  /** The page's meta description: every page has one. */
  description: string;
  canonical?: string;
  alternates: Alternate[];
  /** Above the page itself; the home page has none. */
  crumbs: Crumb[];
  og?: { title: string; description: string; image: string | null };
  jsonLd?: string;
  /** The page's own `<body class>`: lets a page's layout differ without a style sheet of its own. */
  kind?: string;
}

export const PAGE_STYLE_PATH = LINKED_PATHS.style;
/** The map explorer stays at the root: every shared `/#feature=…` link keeps working. */
export const MAP_ROOT = '/';

export function page(at: PageAt, context: PageContext) {
  const { baseUrl, site } = at;
  return {
    ...context,
    title: context.title === site.title ? site.title : `${context.title} · ${site.title}`,
    siteTitle: site.title,
    publisher: site.publisher,
    licence: site.licence,
    style: `${baseUrl}${PAGE_STYLE_PATH}`,
    favicon: `${baseUrl}${SITE_PATHS.faviconSvg}`,
    home: `${baseUrl}${SITE_PATHS.about}`,
    search: `${baseUrl}${SITE_PATHS.search}`,
    map: `${baseUrl}${MAP_ROOT}`,
    data: `${baseUrl}${SITE_PATHS.about}#data`,
    ogc: `${baseUrl}${LINKED_PATHS.ogcLanding}`,
    apiDocs: `${baseUrl}${DOCS_PREFIX}`,
    accountNav: accountNav(at),
  };
}

/**
 * With contributions on, the header's way in: the same static links for everyone, signed in or
 * not, so a public page stays one answer for all (a signed-in person's sign-in page says so).
 */
function accountNav({ baseUrl, site }: PageAt): Crumb[] {
  if (!site.contributions) return [];
  return [
    { href: `${baseUrl}${CONTRIBUTE_PATHS.signIn}`, label: 'Sign in' },
    { href: `${baseUrl}${CONTRIBUTE_PATHS.signUp}`, label: 'Sign up' },
  ];
}

export const homeCrumb = (at: PageAt): Crumb => ({ href: `${at.baseUrl}${SITE_PATHS.about}`, label: 'Home' });
export const searchCrumb = (at: PageAt): Crumb => ({ href: `${at.baseUrl}${SITE_PATHS.search}`, label: 'Search' });

/** A text cut at a word to at most `max` characters, for descriptions. */
export function shortened(text: string, max = 155): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}
