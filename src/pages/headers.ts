// What every page for people is sent with, whichever face makes it: its content type and
// headers (a Content-Security-Policy that allows no script at all: the pages need none), and
// how a request asks for a page rather than JSON (f=html, or a browser's Accept preferring
// text/html over JSON when no f is given).
import Negotiator from 'negotiator';
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
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'none'",
    "connect-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "script-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};
