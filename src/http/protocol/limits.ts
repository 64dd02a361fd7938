// Timeouts and size limits of the HTTP server, each set on purpose. The service answers
// small GET requests from memory or one short read, so every limit can be tight: a client
// that is slow to ask is a client holding a socket for nothing.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyHttpOptions, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { refuseConnect } from './client-errors.js';
import { ERRORS } from '../../errors.js';
import { refuseExpectations } from './request-target.js';

/**
 * How often node looks for requests past HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS (its
 * default, 30 s, would let a slow client hold a socket up to 30 s longer than the limit).
 * One walk over the open connections a second costs nothing measurable.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/**
 * Request line plus headers (node's own default, set here so that it cannot drift with a
 * `--max-http-header-size` flag): larger gets a JSON 431, or 414 when the request line
 * alone is too long (client-errors.ts).
 */
export const MAX_HEADER_BYTES = 16_384;

/**
 * A socket with no traffic either way for this long is closed: a client that stopped
 * reading its answer. Above the longest DB_TIMEOUT_MS a deployment should need, so a slow
 * read still ends in its own 503, and above any keep-alive timeout.
 */
export const SOCKET_IDLE_TIMEOUT_MS = 120_000;

/**
 * A path parameter is at most this long (Fastify's default): ids are integers, tile
 * coordinates small numbers. Longer gets Fastify's framework error, a JSON 400.
 */
export const MAX_PARAM_LENGTH = 100;

/** Fastify and node:http options that carry the limits above and the configured timeouts. */
export function serverLimitOptions(config: Config): FastifyHttpOptions<Server> {
  return {
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: Math.max(SOCKET_IDLE_TIMEOUT_MS, config.keepAliveTimeoutMs, config.requestTimeoutMs),
    // No maxRequestsPerSocket: closing busy keep-alive connections every N requests only
    // costs a reconnect (and its race) to clients and load balancers.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      maxHeaderSize: MAX_HEADER_BYTES,
      // node would answer an HTTP/1.1 request without Host with an empty 400 of its own;
      // the Host check answers it with the API's JSON 400 instead.
      requireHostHeader: false,
    },
  };
}

/**
 * onRequest hook: a request target longer than MAX_URL_BYTES is refused before anything
 * else reads it. 8 KiB by default: the longest real URL (every filter, a long `q`) is far
 * below it, and it is what common proxies pass (nginx's 8k buffers, Apache's 8190).
 */
export function refuseLongUrls(config: Pick<Config, 'maxUrlBytes'>) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    // The target as sent, before request-target.ts made it canonical.
    if (request.originalUrl.length > config.maxUrlBytes) throw ERRORS.urlTooLong();
  };
}

/** What cannot be given as an option to node:http's server; `fastify` is its request listener. */
export function configureServer(server: Server, fastify: (request: IncomingMessage, response: ServerResponse) => void): void {
  server.on('connect', refuseConnect);
  refuseExpectations(server, fastify);
  // A client may half-close its side once the request is sent (`nc -N`, some scripts):
  // node would then drop an answer still being prepared (any PostgreSQL read). With this
  // (node's own switch, undocumented) the answer is sent and the connection closed after it.
  Object.assign(server, { httpAllowHalfOpen: true });
}
