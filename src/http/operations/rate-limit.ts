// RATE_LIMIT: requests per client address on the paths that run a query the client chooses
// (RATE_LIMITED_PATHS), counted by @fastify/rate-limit —
// in this process, or in Redis (REDIS_URL) shared by every process and host. Exempt
// addresses are never counted. Over the limit: 429 with Retry-After and the original's
// (DRF's) sentence. A Redis that is down or slow never stops an answer: each command gives
// up after REDIS_COMMAND_TIMEOUT_MS and the request goes through uncounted.
import { createRequire } from 'node:module';
import rateLimit, { normalizeIP, type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { SITE_PATHS } from '../../site/paths.js';
import type { Config, RateLimit } from '../../config.js';
import { clientAddress, type AddressList } from './client-address.js';
import { ERRORS } from '../../errors.js';
import { API_PREFIX, MAP_LABELS_PATH, MAP_MATCHES_PATH, MAP_STREETS_PATH, OGC_PREFIX } from '../../constants.js';

const REDIS_COMMAND_TIMEOUT_MS = 100;
const REDIS_CONNECT_TIMEOUT_MS = 1000;
const WARNING_INTERVAL_MS = 60_000;
/** Clients remembered by the in-process counter (least recently seen forgotten first). */
const LOCAL_CLIENTS = 100_000;

/**
 * Every path whose answer runs a query the client chooses (filters, words, a box, a page): the
 * catalogue's two faces, the map's data and the site's search. Declared once: docs/operators.md
 * and RATE_LIMIT's help name them. Not limited: the other pages and their files, media files,
 * the probes, /metrics, and vector tiles: a tile is a fixed cell of the grid, made from at
 * most 500 footprints (a crowded one stored at import) and cached, and one view of the map
 * asks for dozens of them.
 * A path ending in `/` covers what is under it (and itself without the slash).
 */
export const RATE_LIMITED_PATHS = [API_PREFIX, OGC_PREFIX, MAP_MATCHES_PATH, MAP_LABELS_PATH, MAP_STREETS_PATH, SITE_PATHS.search] as const;

/** Whether the rate limit counts a request for this (canonical) target. */
export function isRateLimitedPath(url: string): boolean {
  return RATE_LIMITED_PATHS.some((path) => {
    const bare = path.endsWith('/') ? path.slice(0, -1) : path;
    return url === bare || url.startsWith(`${bare}?`) || (bare !== path && url.startsWith(path));
  });
}

export interface RateLimitDeps {
  config: Config;
  exempt: AddressList;
  /** Called for every 429 (the metrics count them). */
  onRejected(): void;
}

/**
 * A preHandler hook: it runs after every onRequest hook whatever the order they were added
 * in, so a 429 still carries what those set (CORS headers, the request id).
 */
export async function registerRateLimit(app: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  const { config, exempt } = deps;
  const limit = config.rateLimit;
  if (limit === null) return;
  const warn = warnAtMostEvery(WARNING_INTERVAL_MS, app.log);
  const redis = config.redisUrl === null ? null : await connectRedis(config.redisUrl, warn);
  if (redis) {
    app.addHook('onClose', async () => redis.disconnect());
    await firstConnection(redis);
  }
  await app.register(rateLimit, {
    global: false,
    max: limit.max,
    timeWindow: limit.windowMs,
    skipOnError: true,
    cache: LOCAL_CLIENTS,
    keyGenerator: (request) => normalizeIP(clientAddress(request, config.trustProxy)),
    ...(redis ? { store: reportingStore(redisStore(redis, `${config.redisKeyPrefix}rate-limit:`), warn) } : {}),
  });
  const limiter = app.createRateLimit();
  const headers = rateLimitHeaders(limit);
  app.addHook('preHandler', async (request, reply) => {
    if (!isRateLimitedPath(request.url) || exempt.has(clientAddress(request, config.trustProxy))) return;
    const result = await limiter(request);
    // ttl 0: the store failed (skipOnError), so there is nothing true to say.
    if (result.isAllowed || result.ttl === 0) return;
    const wait = Math.max(1, result.ttlInSeconds);
    for (const [name, value] of headers(result.remaining, wait)) reply.header(name, value);
    if (!result.isExceeded) return;
    deps.onRejected();
    reply.header('retry-after', String(wait));
    throw ERRORS.throttled(wait);
  });
}

/** The IETF draft's RateLimit-* fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(limit: RateLimit) {
  const policy = `${limit.max};w=${limit.windowMs / 1000}`;
  return (remaining: number, resetSeconds: number): [string, string][] => [
    ['ratelimit-limit', String(limit.max)],
    ['ratelimit-remaining', String(remaining)],
    ['ratelimit-reset', String(resetSeconds)],
    ['ratelimit-policy', policy],
  ];
}

/** ioredis is loaded only when Redis is configured: a third of a second of start-up otherwise spent for nothing. */
export async function connectRedis(url: string, warn: (message: string, error: unknown) => void, unavailable = 'Redis unavailable: requests are not counted until it is back'): Promise<Redis> {
  // The package's module.exports, under node and bundled (the tests' dist-test/) alike: a
  // bundle's chunk of a CommonJS package offers no named exports to import().
  const { default: ioredis } = await import('ioredis');
  const redis = new ioredis.Redis(url, {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // While disconnected a command fails at once instead of waiting in a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(times * 200, 5000),
  });
  redis.on('error', (error) => warn(unavailable, error));
  return redis;
}

/** Start counting from the first request when Redis is there; a Redis that is not delays start-up by at most REDIS_CONNECT_TIMEOUT_MS. */
function firstConnection(redis: Redis): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS);
    redis.once('ready', done).once('error', done);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done).off('error', done);
      resolve();
    }
  });
}

/** The plugin's own Redis store (an atomic INCR + PEXPIRE script); not in its public exports. */
function redisStore(redis: Redis, prefix: string): FastifyRateLimitStore {
  const require = createRequire(import.meta.url);
  const RedisStore = require('@fastify/rate-limit/store/RedisStore') as new (
    continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string,
  ) => FastifyRateLimitStore;
  return new RedisStore(false, false, redis, prefix);
}

/** The same store, but its failures are reported (the plugin skips them silently). */
function reportingStore(inner: FastifyRateLimitStore, warn: (message: string, error: unknown) => void): FastifyRateLimitStoreCtor {
  return class implements FastifyRateLimitStore {
    incr(key: string, callback: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number, max: number): void {
      inner.incr(key, (error, result) => {
        if (error) warn('Redis did not answer in time: requests are not counted until it does', error);
        callback(error, result);
      }, timeWindow, max);
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

export function warnAtMostEvery(intervalMs: number, log: FastifyBaseLogger) {
  let last = -Infinity;
  return (message: string, error: unknown): void => {
    const now = performance.now();
    if (now - last < intervalMs) return;
    last = now;
    log.warn({ err: error }, `${message} (this warning is repeated at most once a minute)`);
  };
}

/** `serve --workers N` without Redis: each worker counts on its own. */
export function perWorkerLimitWarning(config: Pick<Config, 'rateLimit' | 'redisUrl'>, workers: number): string | null {
  if (workers < 2 || config.rateLimit === null || config.redisUrl !== null) return null;
  return `warning: without REDIS_URL each of the ${workers} workers counts requests on its own, so a client may make up to ${workers} × RATE_LIMIT; set REDIS_URL to share the counters.`;
}
