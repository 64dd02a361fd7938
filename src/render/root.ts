// The API root and the OPTIONS descriptions.
import { API_PREFIX, CONTENT_TYPE_OPENAPI, DOCS_PREFIX, OPENAPI_PATH, PARAM_FORMAT, PARSES, RENDERS, ROOT_LINK_ORDER } from '../constants.js';
import { buildUrl } from './links.js';

/** Links to the four collections; a `format` override is kept, as the original's reverse() kept it. */
export function renderApiRoot(baseUrl: string, format: string | null) {
  const query: [string, string][] = format === null ? [] : [[PARAM_FORMAT, format]];
  return Object.fromEntries(ROOT_LINK_ORDER.map((name) => [name, buildUrl(baseUrl, `${API_PREFIX}${name}/`, query)]));
}

/** Where the API is described (RFC 8631): for programs, and for people. */
const SERVICE_LINKS = [
  { path: OPENAPI_PATH, rel: 'service-desc', type: CONTENT_TYPE_OPENAPI },
  { path: DOCS_PREFIX, rel: 'service-doc', type: 'text/html' },
];

/**
 * The root's `Link` header (RFC 8288), absolute like every link of its body. A header, so
 * that the body keeps exactly the four keys the original's clients read.
 */
export function renderApiRootLinks(baseUrl: string): string {
  return SERVICE_LINKS.map(({ path, rel, type }) => `<${buildUrl(baseUrl, path, [])}>; rel="${rel}"; type="${type}"`).join(', ');
}

export interface EndpointDescription {
  name: string;
  description: string;
}

export function renderOptions(endpoint: EndpointDescription) {
  return { name: endpoint.name, description: endpoint.description, renders: RENDERS, parses: PARSES };
}
