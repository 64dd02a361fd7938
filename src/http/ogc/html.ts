// The /ogc/ pages for people: which answer a request gets (f=html, or a browser's Accept
// preferring text/html over JSON when no f is given), the pages' headers (a
// Content-Security-Policy that allows no script at all: the pages need none), their style
// sheet, and /sitemap.xml and /robots.txt.
import type { FastifyInstance } from 'fastify';
import Negotiator from 'negotiator';
import { CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON } from '../../constants.js';
import { OGC_COLLECTIONS } from '../../ogc/properties.js';
import { PAGE_STYLE_PATH } from '../../render/site/shell.js';
import { SITE_PATHS } from '../../site/paths.js';
import { PAGE_CSS } from '../../render/ogc/html/style.js';
import type { ServedStore } from '../../work/reads.js';
import { cachedBytes, HeaderChoices, seenVersion, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { isOgcPath } from '../protocol/faces.js';
import { itemIdsRead } from '../../store/ogc/ogc-reads.js';

export const CONTENT_TYPE_HTML = 'text/html; charset=utf-8';
/** Added to the answer cache's key of a page chosen by Accept (the URL alone names the JSON). */
export const HTML_KEY_SUFFIX = '\nhtml';

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

/** Whether a URL's query has `f` (then the URL alone says which answer it gets). */
export function hasFormatParameter(url: string): boolean {
  return formatParameter(url) !== null;
}

/** The fast path's key suffix for a request (cache/fast-answers.ts): the route handler's choice. */
export function negotiatedKeySuffix(url: string, accept: string | undefined, pages: HeaderChoices<boolean>): string {
  return isOgcPath(url) && pages.choose(accept) && !hasFormatParameter(url) ? HTML_KEY_SUFFIX : '';
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

/** Sitemaps hold at most 50,000 URLs each (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

export interface PagesDeps extends AnswerDeps {
  store: ServedStore;
}

export function registerPageRoutes(app: FastifyInstance, deps: PagesDeps): void {
  // The list of record URLs, read once per catalogue version and base URL (the index and its
  // parts share it; a second request while it is read waits for the same read).
  let listed: { key: string; urls: Promise<{ version: number; urls: string[] }> } | null = null;
  const urlsNow = async (baseUrl: string) => {
    const key = `${await deps.store.catalogueVersion()}\n${baseUrl}`;
    if (listed === null || listed.key !== key) {
      const urls = recordUrls(deps.store, baseUrl);
      listed = { key, urls };
      urls.catch(() => { if (listed?.urls === urls) listed = null; });
    }
    return listed.urls;
  };
  app.get(PAGE_STYLE_PATH, async (request, reply) => {
    const key = `${request.baseUrl}\n${PAGE_STYLE_PATH}`;
    const answer = await cachedBytes(deps, key, async () => ({ version: await seenVersion(deps), bytes: Buffer.from(PAGE_CSS), contentType: 'text/css; charset=utf-8' }));
    return sendAnswer(request, reply, deps, key, answer);
  });
  app.get('/robots.txt', async (request, reply) => {
    const key = `${request.baseUrl}\n/robots.txt`;
    const text = `User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: ${request.baseUrl}/sitemap.xml\n`;
    const answer = await cachedBytes(deps, key, async () => ({ version: await seenVersion(deps), bytes: Buffer.from(text), contentType: 'text/plain; charset=utf-8' }));
    return sendAnswer(request, reply, deps, key, answer);
  });
  app.get('/sitemap.xml', async (request, reply) => {
    const key = `${request.baseUrl}\n/sitemap.xml`;
    const answer = await cachedBytes(deps, key, async () => {
      const { version, urls } = await urlsNow(request.baseUrl);
      return { version, bytes: Buffer.from(sitemapDocument(urls, null, request.baseUrl) ?? ''), contentType: 'application/xml; charset=utf-8' };
    });
    return sendAnswer(request, reply, deps, key, answer);
  });
  app.get('/sitemaps/:n', async (request, reply) => {
    const name = (request.params as { n?: string }).n ?? '';
    const match = /^([1-9]\d{0,5})\.xml$/.exec(name);
    const key = `${request.baseUrl}\n/sitemaps/${name}`;
    const answer = match === null ? null : await cachedBytes(deps, key, async () => {
      const { version, urls } = await urlsNow(request.baseUrl);
      // No part n: an empty answer, sent as not found below.
      return { version, bytes: Buffer.from(sitemapDocument(urls, Number(match[1]), request.baseUrl) ?? ''), contentType: 'application/xml; charset=utf-8' };
    });
    if (answer === null || answer.body.length === 0) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    return sendAnswer(request, reply, deps, key, answer);
  });
}

/** The site's home and search, then every published record's canonical page, features first, each collection by id. */
async function recordUrls(store: ServedStore, baseUrl: string): Promise<{ version: number; urls: string[] }> {
  const { version, ids } = await store.ask(itemIdsRead);
  const pages = [SITE_PATHS.about, SITE_PATHS.search].map((path) => `${baseUrl}${path}`);
  return { version, urls: [...pages, ...OGC_COLLECTIONS.flatMap((collection) => ids[collection].map((id) => `${baseUrl}${SITE_PATHS.record(collection, id)}`))] };
}

const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The sitemap (part null): every URL when they fit in one, else an index of the parts; or
 * part n (from 1) of `max` URLs, null when there is no such part.
 */
export function sitemapDocument(urls: readonly string[], part: number | null, baseUrl: string, max = SITEMAP_MAX_URLS): string | null {
  if (part === null) {
    if (urls.length <= max) return urlSet(urls);
    return sitemapIndex(Array.from({ length: Math.ceil(urls.length / max) }, (_, i) => `${baseUrl}/sitemaps/${i + 1}.xml`));
  }
  const slice = urls.slice((part - 1) * max, part * max);
  return slice.length === 0 ? null : urlSet(slice);
}

function urlSet(urls: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `<url><loc>${xmlEscape(u)}</loc></url>\n`).join('')}</urlset>\n`;
}

function sitemapIndex(urls: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `<sitemap><loc>${xmlEscape(u)}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;
}
