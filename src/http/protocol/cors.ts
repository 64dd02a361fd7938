// CORS on /api/ and /ogc/ paths, and on the files other sites' maps and pages load (/tiles/,
// /media/), by @fastify/cors: any origin (`*`, the original's setting), a list
// of origins (echoed when they match), or off. A request without an Origin header is
// answered exactly as before (no Access-Control-* header, Vary untouched), and a plain
// OPTIONS keeps its JSON description: only a real preflight (Origin and
// Access-Control-Request-Method) gets the plugin's empty 200.
// Registered before every other onRequest hook, so that refusals (400 host, 429, 404, 405,
// 503) carry the headers too and a browser script can read them. The headers are set per
// request, never cached with an answer.
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config, CorsOrigins } from '../../config.js';
import { ALLOW_METHODS } from '../../constants.js';
import { isOgcPath, isSharedFilePath } from './faces.js';

/** What a script on another origin may read besides the simple headers. */
export const EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
];
/** How long a browser may keep a preflight's answer (one day). */
export const PREFLIGHT_MAX_AGE = 86400;

export function isCorsPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || isOgcPath(url) || isSharedFilePath(url);
}

export async function registerCors(app: FastifyInstance, config: Pick<Config, 'corsOrigins'>): Promise<void> {
  const origins = config.corsOrigins;
  if (origins === 'off') return;
  await app.register(cors, { delegator: (request, callback) => callback(null, corsOptions(request, origins)) });
  // Per request, the plugin adds `Vary: Origin` before it asks which options apply; answers
  // outside those paths (health, the map page, their 404s) are left as they were.
  // Tiles and media vary by Origin only when the answer does (a list of origins, and one asked),
  // so that their answers without an Origin stay as they were.
  app.addHook('onSend', (request, reply, payload, done) => {
    const sharedFile = isSharedFilePath(request.url) && corsVary(request, config).length === 0;
    if (!isCorsPath(request.url) || sharedFile) withoutVaryOrigin(reply);
    done(null, payload);
  });
}

function withoutVaryOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) return;
  const tokens = String(vary).split(',').map((t) => t.trim()).filter((t) => t !== '' && t.toLowerCase() !== 'origin');
  if (tokens.length === 0) reply.removeHeader('vary');
  else reply.header('vary', tokens.join(', '));
}

const NO_CORS: FastifyCorsOptions = Object.freeze({ origin: false });

function corsOptions(request: FastifyRequest, origins: Exclude<CorsOrigins, 'off'>): FastifyCorsOptions {
  if (request.headers.origin === undefined || !isCorsPath(request.url)) return NO_CORS;
  const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
  return {
    origin: origins === '*' ? '*' : [...origins],
    methods: ALLOW_METHODS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE,
    preflight,
    strictPreflight: false,
    optionsSuccessStatus: 200,
  };
}

/** Vary tokens CORS adds on API paths: `Origin` when the answer depends on which origin asked. */
export function corsVary(request: FastifyRequest, config: Pick<Config, 'corsOrigins'>): string[] {
  return Array.isArray(config.corsOrigins) && request.headers.origin !== undefined ? ['Origin'] : [];
}
