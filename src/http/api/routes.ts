// The API's endpoints. Each handler parses, asks the store, renders and replies; the
// shapes live in render/, the rules for parameters in params.ts.
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { Config } from '../../config.js';
import type { Collection } from '../../constants.js';
import { renderEnvelope } from '../../render/envelope.js';
import { RENDERERS } from '../../render/collections.js';
import { renderApiRoot, renderApiRootLinks, renderOptions, type EndpointDescription } from '../../render/root.js';
import { getReads, listReads } from '../../store/api/api-reads.js';
import type { ServedStore } from '../../work/reads.js';
import { API_ENDPOINTS, type ApiEndpoint } from '../../endpoints/endpoints.js';
import { openApiHandler } from './openapi.js';
import { parseFilters } from './filters.js';
import { ERRORS } from '../../errors.js';
import { parseFormat, parseListQuery, parseQuery, parseRecordId } from './params.js';
import { sendJson } from '../protocol/reply.js';
import { cachedAnswer, sendAnswer, type AnswerDeps } from '../cache/answers.js';

export interface RouteDeps extends AnswerDeps {
  store: ServedStore;
  config: Config;
}

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** One route per entry of the endpoint table, which the OpenAPI document describes too. */
export function registerApiRoutes(app: FastifyInstance, deps: RouteDeps): void {
  for (const endpoint of API_ENDPOINTS) registerEndpoint(app, endpoint.url, endpoint.description, endpointHandler(endpoint, deps));
}

function endpointHandler(endpoint: ApiEndpoint, deps: RouteDeps): RouteHandlerMethod {
  switch (endpoint.kind) {
    case 'root':
      return rootHandler(deps);
    case 'list':
      return listHandler(endpoint.collection, endpoint.url, deps);
    case 'detail':
      return detailHandler(endpoint.collection, deps);
    case 'openapi':
      return openApiHandler(deps);
  }
}

/** GET (and HEAD), OPTIONS with its description, and 405 for every other method. */
function registerEndpoint(app: FastifyInstance, url: string, description: EndpointDescription, handler: RouteHandlerMethod): void {
  app.get(url, handler);
  app.options(url, async (_request, reply) => sendJson(reply, 200, renderOptions(description)));
  const otherMethods = app.supportedMethods.filter((m) => !READ_METHODS.includes(m));
  app.route({
    method: otherMethods,
    url,
    // Refused before any body is read or parsed.
    onRequest: async (request) => {
      throw ERRORS.methodNotAllowed(request.method);
    },
    handler: async () => undefined,
  });
}

function rootHandler(deps: RouteDeps): RouteHandlerMethod {
  return async (request, reply) => {
    const format = parseFormat(parseQuery(request.url));
    const { baseUrl } = request;
    reply.header('link', renderApiRootLinks(baseUrl));
    return sendJson(reply, 200, renderApiRoot(baseUrl, format));
  };
}

/** Generic in the collection, so that the compiler matches its rows to its renderer. */
function listHandler<C extends Collection>(collection: C, path: string, deps: RouteDeps): RouteHandlerMethod {
  return async (request, reply) => {
    const query = parseListQuery(request.url);
    const filters = parseFilters(collection, query.pairs);
    const { baseUrl } = request;
    const key = `${baseUrl}\n${request.url}`;
    const answer = await cachedAnswer(deps, key, async () => {
      const listing = await deps.store.ask(listReads[collection], query, filters);
      if (listing.page === null) throw ERRORS.invalidPage();
      const results = RENDERERS[collection].results(listing.page.rows, baseUrl);
      const links = { baseUrl, path, query: query.pairs };
      return { version: listing.version, body: renderEnvelope(listing.count, listing.page.position, links, results) };
    });
    return sendAnswer(request, reply, deps, key, answer);
  };
}

function detailHandler<C extends Collection>(collection: C, deps: RouteDeps): RouteHandlerMethod {
  return async (request, reply) => {
    parseFormat(parseQuery(request.url));
    const { baseUrl } = request;
    const id = parseRecordId(idParam(request.params));
    if (id === null) throw ERRORS.notFound();
    const key = `${baseUrl}\n${request.url}`;
    const answer = await cachedAnswer(deps, key, async () => {
      const { version, row } = await deps.store.ask(getReads[collection], id);
      if (row === null) throw ERRORS.notFound();
      return { version, body: RENDERERS[collection].record(row, baseUrl) };
    });
    return sendAnswer(request, reply, deps, key, answer);
  };
}

/** The `:id` of a detail path ('' when absent): without a route schema Fastify types params as unknown. */
function idParam(params: unknown): string {
  return typeof params === 'object' && params !== null && 'id' in params && typeof params.id === 'string' ? params.id : '';
}
