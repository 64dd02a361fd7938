// Django's APPEND_SLASH: an API path missing its trailing slash redirects (301) to the
// slashed path, query kept, when the slashed path is an endpoint.
import { API_PREFIX, COLLECTIONS } from '../../constants.js';

const ENDPOINT_WITHOUT_SLASH = new RegExp(`^${API_PREFIX.slice(0, -1)}(/(${COLLECTIONS.join('|')})(/[^/]+)?)?$`);

/** The relative URL to redirect to, or null when the path is not a slash away from an endpoint. */
export function slashRedirectTarget(url: string): string | null {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  if (!ENDPOINT_WITHOUT_SLASH.test(path)) return null;
  return at === -1 ? `${path}/` : `${path}/${url.slice(at)}`;
}
