// The request target made canonical once, before routing (Fastify's rewriteUrl), so that the
// router, the rate limit, the API and CORS headers, the answer cache's key, the metrics and
// the log all judge one and the same path. `/%61pi/v1/features/` and
// `http://host/api/v1/features/` are `/api/v1/features/`; a target no client should send is
// refused before any of them looks at it. Requests node itself would answer with a bare
// status (two Host headers pass it; an Expect it cannot meet) are refused here too, in JSON.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ALLOW_METHODS } from '../../constants.js';
import { ERRORS, type ApiError } from '../../errors.js';

/** `OPTIONS *`: a question about the server as a whole (RFC 9110 §9.3.7). */
const SERVER_OPTIONS = 'server-options';
/** What was wrong with a request before routing, kept for the onRequest hook (only refused requests are kept). */
const refusals = new WeakMap<IncomingMessage, ApiError | typeof SERVER_OPTIONS>();

const SLASH = 47;
/** absolute-form (RFC 9112 §3.2.2) of http(s): authority without userinfo, then path and query. */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#@]+)([/?][^#]*)?$/i;
/** Percent-encoded unreserved characters (RFC 3986 §2.3): ALPHA, DIGIT, `-`, `.`, `_`, `~`. */
const ENCODED_UNRESERVED = /%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E)/gi;

/** Fastify's rewriteUrl: the origin-form target every later step sees (request.url). */
export function canonicalTarget(request: IncomingMessage): string {
  const url = request.url ?? '/';
  if (hostLines(request.rawHeaders) > 1) refusals.set(request, ERRORS.moreThanOneHost());
  let target = url;
  if (url.charCodeAt(0) !== SLASH) {
    const absolute = ABSOLUTE_FORM.exec(url);
    if (absolute === null) {
      // `*` (asterisk-form) means something only to OPTIONS; anything else is no target.
      if (!refusals.has(request)) refusals.set(request, url === '*' && request.method === 'OPTIONS' ? SERVER_OPTIONS : ERRORS.invalidTarget());
      return '/';
    }
    // The target's authority is the Host (RFC 9112 §3.2.2): the Host check applies to it.
    request.headers.host = absolute[1];
    target = absolute[2] === undefined ? '/' : absolute[2].charCodeAt(0) === SLASH ? absolute[2] : `/${absolute[2]}`;
  }
  // RFC 3986 §6.2.2.2: `%61` and `a` are the same URI; other escapes are left as sent.
  return target.includes('%') ? target.replace(ENCODED_UNRESERVED, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16))) : target;
}

/** Whether canonicalTarget would leave this origin-form target as it is (the fast path's test). */
export function isCanonicalPath(url: string): boolean {
  return url.charCodeAt(0) === SLASH && (!url.includes('%') || url.search(ENCODED_UNRESERVED) === -1);
}

/** Host header lines as sent (node keeps only the first of several). */
export function hostLines(rawHeaders: readonly string[]): number {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name !== undefined && name.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  return hosts;
}

/**
 * Called first by the onRequest hook: throws the refusal found before routing, or answers
 * `OPTIONS *` (204 with Allow) and returns true.
 */
export function answeredBeforeRouting(request: IncomingMessage, reply: FastifyReply): boolean {
  const refusal = refusals.get(request);
  if (refusal === undefined) return false;
  if (refusal !== SERVER_OPTIONS) throw refusal;
  reply.code(204).header('allow', ALLOW_METHODS).send();
  return true;
}

/**
 * The server's 'checkExpectation' listener: without one node answers an Expect other than
 * 100-continue with a bare 417. Marked, the request goes through Fastify like any other
 * (request id, CORS and API headers, log line) and is refused there with a JSON 417.
 */
export function refuseExpectations(server: Server, fastify: (request: IncomingMessage, response: ServerResponse) => void): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    refusals.set(request, ERRORS.expectationFailed());
    fastify(request, response);
  });
}
