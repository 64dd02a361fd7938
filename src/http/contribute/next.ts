// Where a sign-in (or a sign-up) goes on to: the form a signed-out person asked for, carried
// as `next` through the sign-in page. Only a path of this site is kept (OWASP's unvalidated
// redirects): one `/` then anything but a second `/` or a `\` (both make a browser leave for
// another host), no backslash nor control character anywhere; everything else is dropped,
// and the person goes to their account page as before.
import type { FastifyRequest } from 'fastify';
import { CONTRIBUTE_PATHS } from '../../site/paths.js';

const NEXT_MAX = 2000;
const BASE = 'http://next.invalid';

/** `text` when it is a path of this site, else null. */
export function sameSitePath(text: unknown): string | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > NEXT_MAX) return null;
  if (!text.startsWith('/') || text.startsWith('//') || /[\\\u0000-\u001f\u007f-\u009f\s]/.test(text)) return null;
  // Read as a browser would: it must stay on this host.
  return URL.canParse(text, BASE) && new URL(text, BASE).origin === BASE ? text : null;
}

/** The `next` a request carries (the query's on a GET, the form's on a POST), when it is one to keep. */
export function nextOf(request: FastifyRequest): string | null {
  const from = request.method === 'POST' ? request.body : request.query;
  return sameSitePath(typeof from === 'object' && from !== null ? Reflect.get(from, 'next') : undefined);
}

/** The sign-in page, asked to come back to `next` (a path of this site). */
export const signInFor = (next: string | null): string => (next === null ? CONTRIBUTE_PATHS.signIn : `${CONTRIBUTE_PATHS.signIn}?next=${encodeURIComponent(next)}`);
