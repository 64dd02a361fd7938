// The visitors' site: the home (/about/), the search (/search/), each record's canonical page
// (/places/{id}/, /pictures/{id}/, /documents/{id}/, /videos/{id}/: always the page, whatever
// the Accept) and the icon. Pages are made from the same store and kept in the same answer
// cache as every answer, per catalogue version; no page runs a script but a picture's deep zoom.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, SITE_ERRORS } from '../../errors.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { periodBands, htmlAbout, type AboutFacts } from '../../render/site/about.js';
import { FAVICON_SVG } from '../../render/site/favicon.js';
import { htmlSearch } from '../../render/site/search.js';
import { SITE_COLLECTIONS, SITE_PATHS } from '../../site/paths.js';
import { apiPairs, readSiteSearch, SEARCH_PAGE_SIZE, searchQuery, type SiteSearch } from '../../site/search.js';
import type { Overview } from '../../store/store.js';
import type { ServedStore } from '../../work/reads.js';
import { listReads } from '../../store/api/api-reads.js';
import { parseFilters } from '../api/filters.js';
import { parseRecordId } from '../api/params.js';
import { mediaUrl } from '../../render/media-url.js';
import { cachedBytes, seenVersion, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { CONTENT_TYPE_HTML, PAGE_HEADERS, recordPageHeaders } from '../../pages/headers.js';
import { pageAt } from '../../pages/request.js';
import type { PageAt } from '../../pages/shell.js';
import { recordPage, type RecordPageDeps } from './record-pages.js';
import { editorBar, withEditorBar } from '../../render/site/editor-bar.js';
import { VersionMemo } from './version-memo.js';
import { overviewRead } from '../../store/map/map-reads.js';
import { searchCardsRead, yearCountsRead } from '../../store/site/site-reads.js';

export interface SiteDeps extends AnswerDeps, RecordPageDeps {
  store: ServedStore;
  /** Whether a request is an editor's (contributions on): their record pages link to the editors' forms. */
  isEditor?: (request: FastifyRequest) => Promise<boolean>;
}

type MakePage = () => Promise<{ version: number; html: string }>;

/**
 * `path`: what the page depends on (a search by its checked fields, not its raw query string,
 * which could vary at each request); `headers`: its policy, a picture's allowing its viewer.
 */
async function sendPage(request: FastifyRequest, reply: FastifyReply, deps: SiteDeps, make: MakePage, path = request.url, headers = PAGE_HEADERS): Promise<FastifyReply> {
  const key = `${request.baseUrl}\n${path}`;
  const answer = await cachedBytes(deps, key, async () => {
    const made = await make();
    return { version: made.version, bytes: Buffer.from(made.html), contentType: CONTENT_TYPE_HTML };
  });
  return sendAnswer(request, reply.headers(headers), deps, key, answer);
}

/** And the categories, once per catalogue version: the home lists them, a search names its own. */
type SiteReads = SiteDeps & { overview: VersionMemo<Overview> };

export function registerSiteRoutes(app: FastifyInstance, siteDeps: SiteDeps): void {
  const perVersion = <T extends { version: number }>(read: () => Promise<T>) => new VersionMemo(read, siteDeps.versions, () => siteDeps.store.catalogueVersion());
  const deps: SiteReads = { ...siteDeps, overview: perVersion(() => siteDeps.store.ask(overviewRead)) };
  // The home's facts outlive its page in the answer cache, which a crowd of large answers can
  // empty: made again, the page is then a render, not four reads queued behind that crowd.
  const about = perVersion(() => aboutFacts(deps));
  app.get(SITE_PATHS.about, (request, reply) => sendPage(request, reply, deps, async () => {
    const facts = await about.get();
    return { version: facts.version, html: htmlAbout(pageAt(request), facts) };
  }));
  app.get(SITE_PATHS.about.slice(0, -1), async (_request, reply) => reply.code(301).header('location', SITE_PATHS.about).send());
  app.get(SITE_PATHS.search, (request, reply) => {
    const search = readSiteSearch(new URLSearchParams(request.url.split('?')[1] ?? ''));
    return sendPage(request, reply, deps, () => searchPage(deps, pageAt(request), search), `${SITE_PATHS.search}${searchQuery(search)}`);
  });
  for (const collection of SITE_COLLECTIONS) registerRecordRoute(app, deps, collection);
  const icon = Buffer.from(FAVICON_SVG);
  for (const path of [SITE_PATHS.faviconSvg, SITE_PATHS.favicon]) {
    app.get(path, async (request, reply) => {
      const key = `${path}`;
      const answer = await cachedBytes(deps, key, async () => ({ version: await seenVersion(deps), bytes: icon, contentType: 'image/svg+xml' }));
      return sendAnswer(request, reply, deps, key, answer);
    });
  }
}

function registerRecordRoute(app: FastifyInstance, deps: SiteDeps, collection: CatalogueCollection): void {
  const route = SITE_PATHS.recordRoute(collection);
  app.get<{ Params: { id: string } }>(route, (request, reply) => {
    const id = parseRecordId(request.params.id);
    if (id === null) throw ERRORS.notFound();
    const make = () => recordPage(deps, pageAt(request), `${request.baseUrl}${request.url}`, collection, id);
    if (deps.isEditor !== undefined && request.headers.cookie !== undefined) return editorsPage(request, reply, deps, deps.isEditor, make, collection, id);
    return sendPage(request, reply, deps, make, request.url, recordPageHeaders(collection));
  });
  // Without its slash: the page's one URL.
  app.get<{ Params: { id: string } }>(route.slice(0, -1), async (request, reply) => {
    const id = parseRecordId(request.params.id);
    if (id === null) throw ERRORS.notFound();
    return reply.code(301).header('location', SITE_PATHS.record(collection, id)).send();
  });
}

/** An editor's copy of a record's page: the public page with the editors' links, for them alone (never cached, by anyone). */
async function editorsPage(request: FastifyRequest, reply: FastifyReply, deps: SiteDeps, isEditor: (request: FastifyRequest) => Promise<boolean>, make: MakePage, collection: CatalogueCollection, id: number) {
  if (!(await isEditor(request))) return sendPage(request, reply, deps, make, request.url, recordPageHeaders(collection));
  const { html } = await make();
  return reply.headers(recordPageHeaders(collection)).header('cache-control', 'private, no-store').type(CONTENT_TYPE_HTML).send(withEditorBar(html, editorBar(pageAt(request), collection, id)));
}

async function aboutFacts(deps: SiteReads): Promise<AboutFacts & { version: number }> {
  const { store } = deps;
  // Four reads at once, none per band: each band's count is summed from the years' counts.
  const [overview, years, streets, whole] = await Promise.all([deps.overview.get(), store.ask(yearCountsRead), deps.streets.index(), store.ask(listReads.features, { page: 1, pageSize: 1 })]);
  const first = years.years[0];
  const last = years.years.at(-1);
  const bands = first === undefined || last === undefined ? [] : periodBands(first.year, last.year);
  const periods = bands.map((band) => ({ ...band, count: sum(years.years.filter((y) => y.year >= band.from && y.year <= band.to).map((y) => y.count)) }));
  return {
    version: Math.min(overview.version, years.version, whole.version, streets.version),
    features: whole.count,
    categories: overview.categories.map((c) => ({ id: c.id, name: c.name, count: c.features })),
    streets: streets.counts,
    periods,
  };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

async function searchPage(deps: SiteReads, at: PageAt, search: SiteSearch): Promise<{ version: number; html: string }> {
  const { store } = deps;
  const filters = parseFilters('features', apiPairs(search));
  const found = await store.ask(searchCardsRead, { page: search.page, pageSize: SEARCH_PAGE_SIZE }, filters);
  if (found.page === null && search.page > 1) throw SITE_ERRORS.noSuchResultsPage(Math.max(1, Math.ceil(found.count / SEARCH_PAGE_SIZE)));
  const { categories } = await deps.overview.get(found.version);
  const categoryNames = new Map(categories.map((c) => [c.id, c.name]));
  const results = (found.page?.cards ?? []).map((card) => ({
    card,
    thumbnail: card.firstImage === null ? null : mediaUrl(at.baseUrl, card.firstImage),
    categories: card.categoryIds.map((id) => categoryNames.get(id)).filter((name) => name !== undefined),
  }));
  const categoryName = search.category === null ? null : categoryNames.get(search.category) ?? null;
  return { version: found.version, html: htmlSearch(at, search, { count: found.count, results, categoryName }) };
}
