// The API root and the OPTIONS descriptions.
import { API_PREFIX, PARAM_FORMAT, PARSES, RENDERS, ROOT_LINK_ORDER } from '../constants.js';
import { buildUrl } from './links.js';

/** Links to the four collections; a `format` override is kept, as the original's reverse() kept it. */
export function renderApiRoot(baseUrl: string, format: string | null) {
  const query: [string, string][] = format === null ? [] : [[PARAM_FORMAT, format]];
  return Object.fromEntries(ROOT_LINK_ORDER.map((name) => [name, buildUrl(baseUrl, `${API_PREFIX}${name}/`, query)]));
}

export interface EndpointDescription {
  name: string;
  description: string;
}

export function renderOptions(endpoint: EndpointDescription) {
  return { name: endpoint.name, description: endpoint.description, renders: RENDERS, parses: PARSES };
}
