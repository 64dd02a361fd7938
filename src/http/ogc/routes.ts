// The OGC API – Features face: /ogc/ and below. Thin handlers: read the query strictly
// (query.ts, items-params.ts), ask the store, render (render/ogc/), reply through the answer
// cache like /api/v1/ (ETag, 304, compression, the fast path for repeats).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { CONTENT_TYPE_GEOJSON, CONTENT_TYPE_JSON, CONTENT_TYPE_SCHEMA } from '../../constants.js';
import { ERRORS, OGC_ERRORS } from '../../errors.js';
import { stringifyAnswer } from '../../json-text.js';
import { createCql2Reader, type Cql2Reader } from '../../ogc/cql2/filter.js';
import { OGC_PATHS, TILED_COLLECTION, WEB_MERCATOR_QUAD } from '../../ogc/paths.js';
import { isCatalogueCollection, type CatalogueCollection } from '../../catalogue/collections.js';
import { renderCollection, renderCollections } from '../../render/ogc/collections.js';
import { readsStoredText, renderItems, renderItemsText, renderSingleItem } from '../../render/ogc/items.js';
import { DEFAULT_CRS } from '../../ogc/crs.js';
import { renderConformance, renderLanding } from '../../render/ogc/landing.js';
import { renderTileMatrixSets, renderTileset, renderTilesets, renderWebMercatorQuad } from '../../render/ogc/tiles.js';
import { renderFeatureSchema, renderItemSchema, renderQueryables } from '../../render/ogc/schemas.js';
import type { ServedStore } from '../../work/reads.js';
import { htmlCollection, htmlCollections, htmlConformance, htmlItems, htmlLanding } from '../../render/ogc/html/pages.js';
import { CONTENT_TYPE_HTML, PAGE_HEADERS, recordPageHeaders } from '../../pages/headers.js';
import { pageAt } from '../../pages/request.js';
import type { PageAt } from '../../pages/shell.js';
import { HTML_KEY_SUFFIX } from './html.js';
import { cachedBytes, seenVersion, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { ogcApiHandler } from './api-document.js';
import { parseRecordId } from '../api/params.js';
import { writeCursor } from './cursor.js';
import { datasetQueryParameterNames, parseItemOptions, parseItemsQuery } from './items-params.js';
import { sendDownload } from './downloads.js';
import type { GuardedStore } from '../../work/guarded-store.js';
import { buildWaitMs, type KeptGeoPackages } from './kept-geopackages.js';
import { SharedGeoPackages } from './shared-geopackages.js';
import { registerContentCrs } from './content-crs.js';
import { checkParameters, FORMAT_PARAMETERS, readFormat, readItemsFormat, readOgcQuery, type OgcQuery } from './query.js';
import { askExtents, collectionExtentRead, itemRead, itemsRead } from '../../store/ogc/ogc-reads.js';

export interface OgcRouteDeps extends AnswerDeps {
  store: ServedStore;
  /** Whole GeoPackages kept per catalogue version; null: DOWNLOAD_CACHE_DIR is off. */
  geoPackages: KeptGeoPackages | null;
  /** Downloads and GeoPackage builds in worker threads, each class in its turns (src/work/). */
  work: GuardedStore;
  /** A record's page (the site's): an item's page for people is it. */
  recordPage: RecordPage;
}

/** The page and the oldest catalogue version it was read from (`itemVersion`: a read made before). */
export type RecordPage = (at: PageAt, url: string, collection: CatalogueCollection, id: number, itemVersion?: number) => Promise<{ version: number; html: string }>;

/** `forPage`: the body is for the page for people (its HTML is made from it), not sent as JSON. */
type Render = (request: FastifyRequest, query: OgcQuery, forPage: boolean) => Promise<{ version: number; body: unknown; contentType: string }>;
/** The resource as a page for people, from its JSON body (or the store, for one record). */
type RenderHtml = ((request: FastifyRequest, body: any, version: number) => Promise<{ version: number; html: string }> | { version: number; html: string }) & {
  /** Made from the store without the JSON body (its reads would be wasted): checks the query itself. */
  alone?: (request: FastifyRequest, query: OgcQuery) => Promise<{ version: number; html: string }>;
  /** The page's headers, when not every page's (an item's page is its record's page, with its record's). */
  headers?: (request: FastifyRequest) => Readonly<Record<string, string>>;
};
const asPage = (make: (at: PageAt, url: string, body: any) => string): RenderHtml =>
  (request, body, version) => ({ version, html: make(pageAt(request), `${request.baseUrl}${request.url}`, body) });

/** The generated CQL2 parser, made when a first filter arrives (≈0.1 s of CPU kept off start-up). */
function lazyCql2(): () => Cql2Reader {
  let reader: Cql2Reader | null = null;
  return () => (reader ??= createCql2Reader());
}

export function registerOgcRoutes(app: FastifyInstance, deps: OgcRouteDeps): void {
  const cql2 = lazyCql2();
  registerContentCrs(app);
  readOnly(app, OGC_PATHS.api, ogcApiHandler(deps, cql2));
  // `/ogc` too: GIS users type the root without its slash (OAPIF:http://host/ogc).
  for (const path of [OGC_PATHS.landing, OGC_PATHS.landing.slice(0, -1)]) route(app, deps, path, landing(deps), asPage(htmlLanding));
  route(app, deps, OGC_PATHS.conformance, conformance(deps), asPage(htmlConformance));
  route(app, deps, OGC_PATHS.collections, collections(deps), asPage(htmlCollections));
  route(app, deps, OGC_PATHS.collection(':collection'), collection(deps), asPage(htmlCollection));
  route(app, deps, OGC_PATHS.queryables(':collection'), schemaOf(deps, renderQueryables));
  route(app, deps, OGC_PATHS.schema(':collection'), schemaOf(deps, renderItemSchema));
  route(app, deps, OGC_PATHS.featureSchema(':collection'), schemaOf(deps, renderFeatureSchema));
  registerTilesetRoutes(app, deps);
  readOnly(app, OGC_PATHS.items(':collection'), itemsHandler(deps, cql2));
  route(app, deps, OGC_PATHS.item(':collection', ':featureId'), item(deps), itemPage(deps));
}

const landing = (deps: OgcRouteDeps): Render => async (request, query) => {
  checkParameters(query, datasetQueryParameterNames(null));
  return { version: await seenVersion(deps), body: renderLanding(request.baseUrl), contentType: jsonType(query) };
};

const conformance = (deps: OgcRouteDeps): Render => async (_request, query) => {
  checkParameters(query, datasetQueryParameterNames(null));
  return { version: await seenVersion(deps), body: renderConformance(), contentType: jsonType(query) };
};

const collections = (deps: OgcRouteDeps): Render => async (request, query) => {
  checkParameters(query, datasetQueryParameterNames(null));
  const { version, extents } = await askExtents(deps.store);
  return { version, body: renderCollections(request.baseUrl, extents), contentType: jsonType(query) };
};

const collection = (deps: OgcRouteDeps): Render => async (request, query) => {
  const id = collectionParam(request);
  checkParameters(query, datasetQueryParameterNames(id));
  const { version, extent } = await deps.store.ask(collectionExtentRead, id);
  return { version, body: renderCollection(request.baseUrl, id, extent), contentType: jsonType(query) };
};

/** A collection's queryables or schemas: made from the properties' declaration alone. */
const schemaOf = (deps: OgcRouteDeps, render: (baseUrl: string, collection: CatalogueCollection) => unknown): Render => async (request, query) => {
  const id = collectionParam(request);
  checkParameters(query, datasetQueryParameterNames(id));
  return { version: await seenVersion(deps), body: render(request.baseUrl, id), contentType: schemaType(query) };
};

/** f=geojson|csv|fgb|gpkg: the whole result as a file, streamed (downloads.ts); else a page (JSON or HTML). */
function itemsHandler(deps: OgcRouteDeps, cql2: () => Cql2Reader): RouteHandlerMethod {
  const sharedGeoPackages = new SharedGeoPackages(buildWaitMs(deps.config.dbTimeoutMs));
  const itemsPage = answerer(deps, items(deps, cql2), (request, body, version) => ({ version, html: htmlItems(pageAt(request), `${request.baseUrl}${request.url}`, collectionParam(request), body) }));
  return async (request, reply) => {
    const query = readOgcQuery(request.url);
    const format = readItemsFormat(query);
    if (format !== null && format !== 'json' && format !== 'html') return sendDownload(request, reply, deps, collectionParam(request), format, query, cql2, sharedGeoPackages);
    return itemsPage(request, reply, query);
  };
}

const items = (deps: OgcRouteDeps, cql2: () => Cql2Reader): Render => async (request, query, forPage) => {
  const collection = collectionParam(request);
  const { request: asked, options: askedOptions } = parseItemsQuery(collection, query, cql2());
  // The page's small maps are drawn from longitude and latitude (pages/footprint.ts), whatever its `crs`.
  const options = forPage ? { ...askedOptions, crs: DEFAULT_CRS } : askedOptions;
  const asText = readsStoredText(collection, options, forPage);
  const page = await deps.store.ask(itemsRead, collection, { ...asked, maxBytes: deps.config.maxAnswerBytes, asText });
  const links = {
    baseUrl: request.baseUrl,
    path: OGC_PATHS.items(collection),
    query: query.names.map((name): [string, string] => [name, query.get(name) ?? '']),
    next: page.next === null ? null : writeCursor(page.next),
    prev: page.prev === null ? null : writeCursor(page.prev),
  };
  const body = (forPage ? renderItems : renderItemsText)(page, collection, options, links, new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
  return { version: page.version, body, contentType: featureType(query) };
};

const item = (deps: OgcRouteDeps): Render => async (request, query) => {
  const collection = collectionParam(request);
  checkParameters(query, datasetQueryParameterNames(collection));
  const id = featureIdParam(request);
  const options = parseItemOptions(collection, query);
  const { version, row } = await deps.store.ask(itemRead, collection, id);
  if (row === null) throw ERRORS.notFound();
  return { version, body: renderSingleItem(row, request.baseUrl, collection, options), contentType: featureType(query) };
};

/** An item's page for people is its record page (the site's, which the app gives). */
function itemPage(deps: OgcRouteDeps): RenderHtml {
  const page = (request: FastifyRequest, _body: unknown, version: number) =>
    deps.recordPage(pageAt(request), `${request.baseUrl}${request.url}`, collectionParam(request), featureIdParam(request), version);
  const alone = async (request: FastifyRequest, query: OgcQuery) => {
    const collection = collectionParam(request);
    checkParameters(query, datasetQueryParameterNames(collection));
    const id = featureIdParam(request);
    parseItemOptions(collection, query);
    return deps.recordPage(pageAt(request), `${request.baseUrl}${request.url}`, collection, id);
  };
  return Object.assign(page, { alone, headers: (request: FastifyRequest) => recordPageHeaders(collectionParam(request)) });
}

/** OGC API – Tiles: the `features` collection's one tileset, and its tile matrix set. */
function registerTilesetRoutes(app: FastifyInstance, deps: OgcRouteDeps): void {
  route(app, deps, OGC_PATHS.tilesets(':collection'), async (request, query) => {
    tiledCollection(request);
    checkParameters(query, FORMAT_PARAMETERS);
    return { version: await seenVersion(deps), body: renderTilesets(request.baseUrl), contentType: metadataType(query) };
  });
  route(app, deps, OGC_PATHS.tileset(':collection', ':tileMatrixSet'), async (request, query) => {
    tiledCollection(request);
    tileMatrixSetParam(request);
    checkParameters(query, FORMAT_PARAMETERS);
    const { version, extent } = await deps.store.ask(collectionExtentRead, TILED_COLLECTION);
    return { version, body: renderTileset(request.baseUrl, extent.bbox), contentType: metadataType(query) };
  });
  route(app, deps, OGC_PATHS.tileMatrixSets, async (request, query) => {
    checkParameters(query, FORMAT_PARAMETERS);
    return { version: await seenVersion(deps), body: renderTileMatrixSets(request.baseUrl), contentType: metadataType(query) };
  });
  route(app, deps, OGC_PATHS.tileMatrixSet(':tileMatrixSet'), async (request, query) => {
    tileMatrixSetParam(request);
    checkParameters(query, FORMAT_PARAMETERS);
    return { version: await seenVersion(deps), body: renderWebMercatorQuad(), contentType: metadataType(query) };
  });
}

/** Tile metadata has no HTML page: f is json or absent. */
function metadataType(query: OgcQuery): string {
  if (readFormat(query) === 'html') throw OGC_ERRORS.invalidParameter('f', 'json (tile metadata has no HTML page)');
  return CONTENT_TYPE_JSON;
}

function tiledCollection(request: FastifyRequest): void {
  if (collectionParam(request) !== TILED_COLLECTION) throw ERRORS.notFound();
}

function tileMatrixSetParam(request: FastifyRequest): void {
  if (stringParam(request, 'tileMatrixSet') !== WEB_MERCATOR_QUAD) throw ERRORS.notFound();
}

const jsonType = (query: OgcQuery) => (readFormat(query), CONTENT_TYPE_JSON);
/** Schemas have no page: f is json or absent. */
function schemaType(query: OgcQuery): string {
  const f = readFormat(query);
  if (f === 'html') throw OGC_ERRORS.invalidParameter('f', 'json (schemas have no HTML page)');
  return f === 'json' ? CONTENT_TYPE_JSON : CONTENT_TYPE_SCHEMA;
}
const featureType = (query: OgcQuery) => (readFormat(query) === 'json' ? CONTENT_TYPE_JSON : CONTENT_TYPE_GEOJSON);

function stringParam(request: FastifyRequest, name: string): string {
  const params: unknown = request.params;
  if (typeof params === 'object' && params !== null && name in params) {
    const value: unknown = Reflect.get(params, name);
    if (typeof value === 'string') return value;
  }
  return '';
}

function collectionParam(request: FastifyRequest): CatalogueCollection {
  const name = stringParam(request, 'collection');
  if (!isCatalogueCollection(name)) throw ERRORS.notFound();
  return name;
}

function featureIdParam(request: FastifyRequest): number {
  const id = parseRecordId(stringParam(request, 'featureId'));
  if (id === null) throw ERRORS.notFound();
  return id;
}

const READ_METHODS = ['GET', 'HEAD'];

function route(app: FastifyInstance, deps: OgcRouteDeps, url: string, render: Render, html?: RenderHtml): void {
  readOnly(app, url, handler(deps, render, html));
}

/** GET (and HEAD) answered by `get`; every other method but OPTIONS (CORS preflights) 405. */
function readOnly(app: FastifyInstance, url: string, get: RouteHandlerMethod): void {
  app.get(url, get);
  app.route({
    method: app.supportedMethods.filter((m) => !READ_METHODS.includes(m) && m !== 'OPTIONS'),
    url,
    onRequest: async (request) => {
      throw ERRORS.methodNotAllowed(request.method);
    },
    handler: async () => undefined,
  });
}

function handler(deps: OgcRouteDeps, render: Render, html?: RenderHtml): RouteHandlerMethod {
  const answer = answerer(deps, render, html);
  return async (request, reply) => answer(request, reply, readOgcQuery(request.url));
}

/** The answer to a request whose query is already read: from the cache, or rendered as JSON or HTML. */
function answerer(deps: OgcRouteDeps, render: Render, html?: RenderHtml) {
  return async (request: FastifyRequest, reply: FastifyReply, query: OgcQuery): Promise<FastifyReply> => {
    const f = html === undefined ? null : readFormat(query);
    // Without f the answer is chosen by Accept: JSON unless text/html is preferred to it.
    const page = html !== undefined && (f === 'html' || (f === null && deps.pages.choose(request.headers.accept)));
    const key = `${request.baseUrl}\n${request.url}${page && f === null ? HTML_KEY_SUFFIX : ''}`;
    const answer = await cachedBytes(deps, key, async () => {
      if (page && html.alone !== undefined) {
        const made = await html.alone(request, query);
        return { version: made.version, bytes: Buffer.from(made.html), contentType: CONTENT_TYPE_HTML };
      }
      const { version, body, contentType } = await render(request, query, page);
      if (!page) return { version, bytes: Buffer.from(stringifyAnswer(body)), contentType };
      const made = await html(request, body, version);
      return { version: made.version, bytes: Buffer.from(made.html), contentType: CONTENT_TYPE_HTML };
    });
    if (html !== undefined && f === null) {
      const vary = reply.getHeader('vary');
      reply.header('vary', vary === undefined ? 'Accept' : `${String(vary)}, Accept`);
    }
    if (page) reply.headers(html.headers?.(request) ?? PAGE_HEADERS);
    return sendAnswer(request, reply, deps, key, answer);
  };
}
