// The absolute base of every link: BASE_URL when set, otherwise the request's scheme and
// Host — and a Host outside ALLOWED_HOSTS is refused before anything is built from it
// (Django's ALLOWED_HOSTS rules). Checked once per request: app.ts's onRequest hook keeps
// the result as `request.baseUrl`; the fast path (cache/fast-answers.ts), before Fastify,
// checks on its own.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { ERRORS } from '../../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The absolute base of this request's links, set by the onRequest hook (app.ts) when it
     * checks the Host, so that handlers neither check it again nor build it again. '' on the
     * paths that hook leaves unchecked (probes, metrics), which build no links.
     */
    baseUrl: string;
  }
}

/** Gives every request the `baseUrl` field above (a string, so Fastify keeps one request shape). */
export function decorateBaseUrl(app: FastifyInstance): void {
  app.decorateRequest('baseUrl', '');
}

const HOST_SYNTAX = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:\d+)?$/;

export interface RequestOrigin {
  headers: IncomingHttpHeaders;
  protocol: 'http' | 'https';
}

/** The host name (lower case, no port, no trailing dot), or null when the value is malformed. */
export function hostDomain(host: string): string | null {
  const [, name] = HOST_SYNTAX.exec(host.toLowerCase()) ?? [];
  return name === undefined ? null : name.replace(/\.$/, '');
}

export function isAllowedHost(domain: string, patterns: readonly string[]): boolean {
  return patterns.some(
    (p) => p === '*' || p === domain || (p.startsWith('.') && (domain.endsWith(p) || domain === p.slice(1))),
  );
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim();
}

/** The Host the client asked for, honouring X-Forwarded-Host only behind a trusted proxy. */
function requestedHost(request: RequestOrigin, config: Config): string | undefined {
  const forwarded = config.trustProxy ? firstValue(request.headers['x-forwarded-host']) : undefined;
  return forwarded || request.headers.host;
}

/** Throws invalidHost for a missing, malformed or not-allowed Host; returns the checked host. */
function checkHost(request: RequestOrigin, config: Config): string {
  const host = requestedHost(request, config);
  const domain = host === undefined ? null : hostDomain(host);
  if (host === undefined || domain === null || !isAllowedHost(domain, config.allowedHosts)) throw ERRORS.invalidHost();
  return host.toLowerCase();
}

/** The one check of a request's Host (invalidHost when refused), and the base of its links. */
export function requestBaseUrl(request: RequestOrigin, config: Config): string {
  const host = checkHost(request, config);
  if (config.baseUrl !== null) return config.baseUrl;
  return `${requestScheme(request, config)}://${host}`;
}

/**
 * The scheme the client used: behind a trusted proxy its X-Forwarded-Proto, else the socket's.
 * Read here, not by Fastify's own trustProxy (off in app.ts), which would also make
 * `request.ip` the client-written first entry of X-Forwarded-For (client-address.ts reads the
 * proxy's own, the last); without either, `request.protocol` never sees the proxy's https.
 */
export function requestScheme(request: RequestOrigin, config: Pick<Config, 'trustProxy'>): 'http' | 'https' {
  const forwarded = config.trustProxy ? firstValue(request.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  return forwarded === 'https' || forwarded === 'http' ? forwarded : request.protocol;
}
