// What every page for people is sent with, whichever face makes it: its content type and
// headers (a Content-Security-Policy that allows no script at all where the page needs none,
// and only this server's where a viewer of pictures runs), and
// how a request asks for a page rather than JSON (f=html, or a browser's Accept preferring
// text/html over JSON when no f is given).
import { createHash } from 'node:crypto';
import Negotiator from 'negotiator';
import type { CatalogueCollection } from '../catalogue/collections.js';
import { CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON } from '../constants.js';
import { HeaderChoices } from '../http/cache/answers.js';

export const CONTENT_TYPE_HTML = 'text/html; charset=utf-8';

const OFFERED = [CONTENT_TYPE_JSON, CONTENT_TYPE_GEOJSON, 'text/html'];

/** Whether an Accept value prefers text/html to JSON (a browser's does; GDAL's and QGIS's do not). */
export function prefersHtml(accept: string): boolean {
  return accept.includes('html') && new Negotiator({ headers: { accept } }).mediaTypes(OFFERED)[0] === 'text/html';
}

/** Accept's values read by one app, each with whether it prefers a page (no Accept: JSON). */
export class PageChoices extends HeaderChoices<boolean> {
  constructor() {
    super(prefersHtml, false);
  }
}

/** A URL's `f`, or null without one. */
export function formatParameter(url: string): string | null {
  const at = url.indexOf('?');
  return at === -1 ? null : new URLSearchParams(url.slice(at + 1)).get('f');
}

/**
 * No script may run on these pages; styles and pictures only from this server. `connect-src
 * 'self'` lets a browser's own tools (Lighthouse) fetch /robots.txt from the page, and
 * `form-action 'self'` the site's search box (a GET form) go to this server's search.
 */
const PAGE_POLICY: Readonly<Record<string, string>> = {
  'default-src': "'none'",
  'connect-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self' data:",
  'script-src': "'none'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'self'",
  'frame-ancestors': "'self'",
};

function headersWith(policy: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  return {
    'content-security-policy': Object.entries(policy).map(([directive, value]) => `${directive} ${value}`).join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  };
}

export const PAGE_HEADERS = headersWith(PAGE_POLICY);

/**
 * The one style element OpenSeadragon (6.1) writes into a page, its text as it writes it (no
 * focus outline on touch screens): allowed by its hash, not every inline style. A version
 * that writes another text is refused, which the browser test of the viewer sees.
 */
const OPENSEADRAGON_STYLE = '@media (hover: none) {    .openseadragon-canvas:focus {        outline: none !important;    }}';
const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * A picture's page, whose deep-zoom viewer (web/iiif/picture-viewer.ts) is a script from
 * this server that reads the picture's info.json (connect-src 'self', as every page has it)
 * and draws its tiles, pictures from this server, on a canvas: scripts from this server and
 * OpenSeadragon's style element, nothing else more than any page.
 */
export const PICTURE_PAGE_HEADERS = headersWith({ ...PAGE_POLICY, 'script-src': "'self'", 'style-src': `'self' ${hashSource(OPENSEADRAGON_STYLE)}` });

/**
 * The comparison page's Mirador (/iiif/places/{id}/compare/): its bundle, the manifest, the
 * info.json files and the tiles, all from this server, and inline styles, which Mirador's
 * components write as <style> elements (emotion) as they render; no form, and no frame of
 * another site around it.
 */
export const COMPARE_PAGE_HEADERS = headersWith({ ...PAGE_POLICY, 'script-src': "'self'", 'style-src': "'self' 'unsafe-inline'", 'form-action': "'none'" });

/** A record's page by its collection: a picture's has its viewer. */
export function recordPageHeaders(collection: CatalogueCollection): Readonly<Record<string, string>> {
  return collection === 'images' ? PICTURE_PAGE_HEADERS : PAGE_HEADERS;
}
