// The files every page for people leans on, whichever face made it: the pages' style sheet,
// /robots.txt and /sitemap.xml (the site's home and search and every published record's
// page, in parts of at most 50,000 URLs).
import type { FastifyInstance } from 'fastify';
import { CATALOGUE_COLLECTIONS, type CatalogueCollection } from '../../catalogue/collections.js';
import { PAGE_STYLE_PATH } from '../../pages/shell.js';
import { PAGE_CSS } from '../../pages/style.js';
import { SITE_PATHS } from '../../site/paths.js';
import type { ServedStore } from '../../work/reads.js';
import { cachedBytes, seenVersion, sendAnswer, type AnswerDeps } from '../cache/answers.js';

/** Sitemaps hold at most 50,000 URLs each (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** Every published record's id by collection, from one catalogue version: handed in by the app (app.ts), which reads it as OGC's item ids. */
export type RecordIds = () => Promise<{ version: number; ids: Readonly<Record<CatalogueCollection, readonly number[]>> }>;

export interface PagesDeps extends AnswerDeps {
  store: ServedStore;
  recordIds: RecordIds;
}

export function registerPageRoutes(app: FastifyInstance, deps: PagesDeps): void {
  // The list of record URLs, read once per catalogue version and base URL (the index and its
  // parts share it; a second request while it is read waits for the same read).
  let listed: { key: string; urls: Promise<{ version: number; urls: string[] }> } | null = null;
  const urlsNow = async (baseUrl: string) => {
    const key = `${await deps.store.catalogueVersion()}\n${baseUrl}`;
    if (listed === null || listed.key !== key) {
      const urls = recordUrls(deps.recordIds, baseUrl);
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
  app.get<{ Params: { n: string } }>('/sitemaps/:n', async (request, reply) => {
    const name = request.params.n;
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
async function recordUrls(recordIds: RecordIds, baseUrl: string): Promise<{ version: number; urls: string[] }> {
  const { version, ids } = await recordIds();
  const pages = [SITE_PATHS.about, SITE_PATHS.search].map((path) => `${baseUrl}${path}`);
  return { version, urls: [...pages, ...CATALOGUE_COLLECTIONS.flatMap((collection) => ids[collection].map((id) => `${baseUrl}${SITE_PATHS.record(collection, id)}`))] };
}

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);

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
