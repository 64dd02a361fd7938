// buildApp composes the service: hooks, routes, and the one place errors become answers.
// It never listens (server.ts does), so tests can drive it over a real socket or inject().
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { clientRefusal, frameworkErrorHandler, handleClientError } from './http/protocol/client-errors.js';
import { registerCors } from './http/protocol/cors.js';
import { docsAssets, registerDocsPage } from './http/pages/docs-page.js';
import { DOCS_PREFIX, OPENAPI_PATH } from './constants.js';
import { OGC_PATHS } from './ogc/paths.js';
import { ERRORS, answerOf } from './errors.js';
import { isHealthPath, registerHealth, type Readiness } from './http/operations/health.js';
import { decorateBaseUrl, requestBaseUrl } from './http/protocol/host.js';
import { configureServer, refuseLongUrls, serverLimitOptions } from './http/protocol/limits.js';
import { registerMedia } from './http/files/media.js';
import { registerContributedPictures } from './http/files/contributed-pictures.js';
import { registerIiif } from './http/iiif/register.js';
import { pictureUploadSlots } from './http/contribute/picture-upload.js';
import { isMetricsPath } from './http/operations/metrics.js';
import { registerOperations } from './http/operations/operations.js';
import { EncodingChoices } from './http/cache/answers.js';
import { installFastAnswers, ReplayNotes } from './http/cache/fast-answers.js';
import { echoRequestId, REQUEST_ID_LOG_LABEL, requestIds, type RequestIds } from './http/operations/request-log.js';
import { answeredBeforeRouting, canonicalTarget } from './http/protocol/request-target.js';
import { registerMapPage } from './http/pages/map-page.js';
import { apiHeaders, sendError } from './http/protocol/reply.js';
import { AnswerCache } from './http/cache/answer-cache.js';
import { reportingVersions, watchCatalogueVersion, type VersionWatch } from './version-watch.js';
import { buildWaitMs, keptGeoPackages } from './http/ogc/kept-geopackages.js';
import { registerApiRoutes } from './http/api/routes.js';
import { registerOgcRoutes, type RecordPage } from './http/ogc/routes.js';
import { recordPage, type FeaturesInBox } from './http/site/record-pages.js';
import { itemIdsRead, itemsRead } from './store/ogc/ogc-reads.js';
import { registerPageRoutes } from './http/site/sitemap.js';
import { PageChoices } from './pages/headers.js';
import { slashRedirectTarget } from './http/api/slash-redirect.js';
import { registerTileRoutes } from './http/files/tiles.js';
import { registerSiteRoutes } from './http/site/routes.js';
import { registerContributeRoutes, type EditorCheck } from './http/contribute/routes.js';
import { StreetLabels } from './http/site/street-labels.js';
import { siteOf, type Site } from './pages/site.js';
import { LAZY_SCHEMA_COMPILERS } from './http/protocol/schema-compilers.js';
import { StoreBusyError, StoreUnavailableError, type CatalogueReader, type CatalogueStore } from './store/store.js';
import { guardStore } from './work/guarded-store.js';
import type { Gate } from './work/gate.js';
import { WORK_REGISTRY } from './reads.js';
import type { ServedStore } from './work/reads.js';
import { geoPackageBuilder } from './http/ogc/worker-jobs.js';

export interface AppDeps {
  /** The catalogue's reads, the contributors' tables (`transact`), and an editor's approvals (`applyChanges`). */
  store: CatalogueReader & Pick<CatalogueStore, 'transact' | 'applyChanges'>;
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Set `stopping` to make /readyz answer 503 (server.ts does, when a shutdown begins). */
  readiness?: Readiness;
  /** The fast path for cached answers (http/cache/fast-answers.ts); off only to compare with it. */
  fastAnswers?: boolean;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const requestId = requestIds();
  const app = Fastify(fastifyOptions(deps, requestId));
  configureServer(app.server, app.routing);
  echoRequestId(app);
  // Before any plugin is registered: a plugin's routes keep the error handler of that moment.
  app.setErrorHandler(answerError);
  // First, so that every refusal by a later hook still carries the CORS headers.
  await registerCors(app, deps.config);
  addRequestSteps(app, deps.config, siteOf(deps.config, await databaseRole(deps)));
  const cache = new AnswerCache(deps.config.cacheMaxBytes);
  const { work, geoPackages, versions } = watchCatalogue(app, deps);
  // Kept per app: the Accept-Encoding and Accept values read, and what the fast path may replay.
  const replays = deps.fastAnswers === false ? null : new ReplayNotes();
  // The routes' store tells the watch each read's version: a newer one retires the cached answers at once.
  const store = reportingVersions(work, versions);
  const answering = { cache, versions, store, encodings: new EncodingChoices(), pages: new PageChoices(), replays };
  const streets = new StreetLabels(store, versions);
  const uploads = pictureUploadSlots();
  const iiif = await registerIiif(app, { ...deps, ...answering, site: siteOf(deps.config) });
  const { metrics, exempt } = await registerOperations(app, { ...deps, cache, versions, gates: [...(deps.config.contributions ? [uploads] : []), iiif.gate] });
  registerApiRoutes(app, { ...deps, ...answering });
  // The site and OGC meet here, not in each other's modules: OGC's item pages are the site's
  // record pages, and the site's surroundings and sitemap are read by OGC's reads.
  const featuresInBox = ogcFeaturesInBox(store);
  const recordPageOf: RecordPage = (at, url, collection, id, itemVersion) => recordPage({ store, streets, featuresInBox }, at, url, collection, id, itemVersion);
  registerOgcRoutes(app, { ...deps, ...answering, geoPackages, work: store, recordPage: recordPageOf });
  registerPageRoutes(app, { ...deps, ...answering, recordIds: () => store.ask(itemIdsRead) });
  const editors = deps.config.contributions ? await registerContributions(app, deps, store, versions, uploads) : null;
  registerSiteRoutes(app, { ...deps, ...answering, streets, featuresInBox, ...(editors === null ? {} : { isEditor: editors.isEditor }) });
  registerHealth(app, deps.store, deps.readiness ?? { stopping: false }, deps.config.maxReplicaLagMs);
  const swaggerUi = docsAssets();
  registerDocsPage(app, deps.config, DOCS_PREFIX, OPENAPI_PATH, swaggerUi);
  registerDocsPage(app, deps.config, OGC_PATHS.docs, OGC_PATHS.api, swaggerUi);
  registerTileRoutes(app, { ...deps, ...answering });
  const fromMediaRoot = deps.config.mediaRoot === null ? null : await registerMedia(app, deps.config.mediaRoot);
  // Contributed pictures come from the store, with or without a media root (no shared folder).
  registerContributedPictures(app, { ...deps, ...answering, fromMediaRoot });
  await registerMapPage(app, { ...deps, ...answering });
  if (replays !== null) installFastAnswers(app, { config: deps.config, ...answering, replays, metrics, exempt, requestId });
  return app;
}

function fastifyOptions(deps: AppDeps, requestId: RequestIds): FastifyServerOptions {
  return {
    logger: deps.logger ?? false,
    // Fastify's two lines per request are replaced by one (http/operations/request-log.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: REQUEST_ID_LOG_LABEL }),
    genReqId: requestId,
    requestIdHeader: false,
    // Malformed URLs and headers are the client's mistake: a JSON 400, not Fastify's text.
    frameworkErrors: frameworkErrorHandler(deps.config),
    clientErrorHandler: handleClientError,
    // One canonical target for the router and every hook (http/protocol/request-target.ts).
    rewriteUrl: canonicalTarget,
    schemaController: LAZY_SCHEMA_COMPILERS,
    ...serverLimitOptions(deps.config),
  };
}

/** The database's place in replication, read once at start (for the pages' links to the contributors' forms: site.ts); null when it cannot say. */
async function databaseRole({ config, store }: AppDeps): Promise<'primary' | 'replica' | null> {
  if (!config.contributions || store.replication === undefined) return null;
  return (await store.replication().catch(() => null))?.role ?? null;
}

/** The one place a thrown error becomes an answer. */
function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const answer = answerOf(error);
  if (answer !== null) return sendError(reply, answer);
  // Refused for load: no stack logged, the cheap path (the request's log line says 503).
  if (error instanceof StoreBusyError) return sendError(reply.header('retry-after', '1'), ERRORS.busy(error.workClass));
  if (error instanceof StoreUnavailableError) {
    request.log.warn({ err: error }, 'store unavailable');
    return sendError(reply.header('retry-after', '1'), ERRORS.serviceUnavailable());
  }
  const refusal = clientRefusal(error);
  if (refusal !== null) return sendError(reply, refusal);
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, ERRORS.serverError());
}

/** Every request's steps before and after its route: the URL's length, refusals found before routing, the base URL, the API's headers, and a 404 (or the slash's 301). */
function addRequestSteps(app: FastifyInstance, config: Config, site: Site): void {
  app.addHook('onRequest', refuseLongUrls(config));
  decorateBaseUrl(app);
  app.decorate('site', site);
  app.addHook('onRequest', async (request, reply) => {
    if (answeredBeforeRouting(request.raw, reply)) return reply;
    // Probes address a process by its IP, whatever names the site is served under.
    if (!isHealthPath(request.url) && !isMetricsPath(request.url)) request.baseUrl = requestBaseUrl(request, config);
  });
  app.addHook('onSend', apiHeaders(config));
  app.setNotFoundHandler(async (request, reply) => {
    const target = slashRedirectTarget(request.url);
    if (target === null) throw ERRORS.notFound();
    return reply.code(301).header('location', target).send();
  });
}

/** A page of features meeting a box, for the site's record pages (record-pages.ts FeaturesInBox): OGC's items read with a bbox filter. */
function ogcFeaturesInBox(store: ServedStore): FeaturesInBox {
  return (box, limit, maxBytes, fewCandidates) => store.ask(itemsRead, 'features', {
    filter: { kind: 'intersects', left: { kind: 'property', name: 'geometry' }, right: { kind: 'bbox', value: box } },
    words: null, sortBy: [], cursor: null, limit, maxBytes, fewCandidates,
  });
}

/** The guarded store, the kept GeoPackages and the catalogue version's watch, closed with the app. */
function watchCatalogue(app: FastifyInstance, deps: AppDeps) {
  // Every read of a costly class takes a turn of it, and on SQLite runs in a worker thread (src/work/).
  const work = guardStore(deps.store, deps.config, WORK_REGISTRY);
  const geoPackages = keptGeoPackages(geoPackageBuilder(work), { dir: deps.config.downloadCacheDir, baseUrl: deps.config.baseUrl, log: app.log, waitMs: buildWaitMs(deps.config.dbTimeoutMs) });
  const versions = watchCatalogueVersion(deps.store, deps.config.versionPollMs, (version, previous) => {
    if (previous !== null) app.log.info({ version, previous }, 'a new catalogue is live');
    void geoPackages?.sawVersion(version);
  });
  app.addHook('onClose', async () => {
    versions.stop();
    await geoPackages?.close();
    await work.closeWorkers();
  });
  return { work, geoPackages, versions };
}

/** Reads through the routes' store (so a version read is met), writes on the store itself; an approval's version served at once. */
async function registerContributions(app: FastifyInstance, deps: AppDeps, store: ServedStore, versions: VersionWatch, uploads: Gate): Promise<EditorCheck> {
  const contributeStore = {
    ask: store.ask.bind(store), read: store.read.bind(store), transact: deps.store.transact.bind(deps.store), applyChanges: deps.store.applyChanges.bind(deps.store),
    ...(deps.store.replication ? { replication: deps.store.replication.bind(deps.store) } : {}),
  };
  return registerContributeRoutes(app, { store: contributeStore, config: deps.config, published: (version) => versions.met(version), uploads });
}
