// Every endpoint of the API, declared once. routes.ts registers a route for each entry and
// the OpenAPI document (src/openapi/) describes each entry, with the same JSON Schema of its
// answer that the tests check bodies against (render/schemas.ts), named here by its title so
// that a server does not load the schemas to route. Nothing here is handed to
// Fastify as a route schema: answers are pre-rendered bytes and params.ts gives the original's
// error messages, so Fastify must neither validate nor serialise.
import { API_PREFIX, COLLECTIONS, OPENAPI_PATH, type Collection } from '../constants.js';
import { LIST_SHAPES, OPENAPI_SHAPE, RECORD_SHAPES, ROOT_SHAPE } from '../render/shape-names.js';
import type { EndpointDescription } from '../render/root.js';
import { DESCRIPTIONS } from './descriptions.js';

interface EndpointBase {
  /** Fastify's form of the path: `:id` for a path parameter. */
  url: string;
  /** What OPTIONS says of it; also its summary and description in the OpenAPI document. */
  description: EndpointDescription;
  /** The body of its 200: the name of its wire shape (render/shape-names.ts), the schema's title and OpenAPI component. */
  shape: string;
}

/** An endpoint, by what it answers: only pages and records belong to a collection. */
export type ApiEndpoint =
  | (EndpointBase & { kind: 'root' })
  | (EndpointBase & { kind: 'list'; collection: Collection })
  | (EndpointBase & { kind: 'detail'; collection: Collection })
  | (EndpointBase & { kind: 'openapi' });

export type EndpointKind = ApiEndpoint['kind'];

const OPENAPI_DESCRIPTION: EndpointDescription = {
  name: 'OpenAPI Document',
  description: 'This API described in OpenAPI 3.1: every path, method, parameter, answer and error. A readable version is at /api/docs/.',
};

function collectionEndpoints(collection: Collection): ApiEndpoint[] {
  const list = { kind: 'list', collection, description: DESCRIPTIONS[collection].list, shape: LIST_SHAPES[collection] } as const;
  return [
    { ...list, url: `${API_PREFIX}${collection}/` },
    // The original service's query endpoints: the same answers, links to themselves.
    { ...list, url: `${API_PREFIX}query/${collection}/` },
    { url: `${API_PREFIX}${collection}/:id/`, kind: 'detail', collection, description: DESCRIPTIONS[collection].detail, shape: RECORD_SHAPES[collection] },
  ];
}

export const API_ENDPOINTS: readonly ApiEndpoint[] = [
  { url: API_PREFIX, kind: 'root', description: DESCRIPTIONS.root, shape: ROOT_SHAPE },
  ...COLLECTIONS.flatMap(collectionEndpoints),
  { url: OPENAPI_PATH, kind: 'openapi', description: OPENAPI_DESCRIPTION, shape: OPENAPI_SHAPE },
];
