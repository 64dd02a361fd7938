// GET /metrics in Prometheus text format (prom-client), one registry per app: requests by
// route pattern (never the raw URL, so the label set stays bounded) and status, latency,
// bytes, the answer cache, the catalogue version, the store's pool and the 429s.
// Answers only the exempt addresses (RATE_LIMIT_EXEMPT); METRICS=off removes the route.
// Under `serve --workers N` one scrape answers for all the workers (cluster-metrics.ts).
import type { FastifyInstance } from 'fastify';
import type { Gate } from '../../work/gate.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from '../../config.js';
import type { CatalogueReader } from '../../store/store.js';
import type { VersionWatch } from '../../version-watch.js';
import type { AnswerCache } from '../cache/answer-cache.js';
import { clientAddress, type AddressList } from './client-address.js';
import { workerScrape } from './cluster-metrics.js';
import { ERRORS } from '../../errors.js';

export const METRICS_PATH = '/metrics';
const NOT_ROUTED = '(no route)';
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The first bucket a latency falls in (-1: above them all); a plain loop, run on every answer. */
function latencyBucket(seconds: number): number {
  for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= (LATENCY_BUCKETS[i] ?? Infinity)) return i;
  return -1;
}

export interface Metrics {
  readonly registry: Registry;
  /** The text of /metrics: this process's registry, or the whole cluster's in a worker. */
  scrape(): Promise<string>;
  /** One finished request; route is the matched pattern (undefined: no route matched). */
  observe(method: string, route: string | undefined, status: number, seconds: number, bytes: number): void;
  /** observe() with method, route and status fixed (the fast path binds one per replayed answer). */
  observer(method: string, route: string, status: number): (seconds: number, bytes: number) => void;
  rejected(): void;
}

export interface MetricSources {
  cache: AnswerCache;
  versions: VersionWatch;
  store: CatalogueReader;
  /** Gates of the write side (picture uploads), their turns taken and waiting. */
  gates?: readonly Gate[];
}

interface RouteCounts {
  /** Requests per latency bucket (not cumulative), then sum, count and body bytes. */
  buckets: number[];
  sum: number;
  count: number;
  bytes: number;
}

type HistogramEntry = { labels: { route: string }; bucketValues: Record<number, number>; sum: number; count: number };

/** The histogram's entry for a route just zeroed, in prom-client's own table (which its types do not show). */
function histogramEntry(histogram: object, route: string): HistogramEntry {
  const table: unknown = Reflect.get(histogram, 'hashMap');
  const entry = typeof table === 'object' && table !== null ? Object.values(table).find((e) => isHistogramEntry(e) && e.labels.route === route) : undefined;
  if (!isHistogramEntry(entry)) throw new Error(`prom-client's histogram has no entry for ${route}`);
  return entry;
}

function isHistogramEntry(value: unknown): value is HistogramEntry {
  if (typeof value !== 'object' || value === null || !('labels' in value) || !('bucketValues' in value)) return false;
  const { labels, bucketValues } = value;
  return typeof labels === 'object' && labels !== null && 'route' in labels && typeof labels.route === 'string' && typeof bucketValues === 'object' && bucketValues !== null;
}

/**
 * Requests are counted in plain numbers, and the three request metrics read them when scraped:
 * prom-client checks and hashes the labels on every call, which cost a cached answer more
 * than its own lookup (BENCHMARKS.md). Label sets appear in the order first seen, as before.
 */
export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const byRequest = new Map<string, { labels: { method: string; route: string; status: number }; n: number }>();
  const byRoute = new Map<string, RouteCounts>();
  new Counter({ name: 'heritage_http_requests_total', help: 'Requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers: [registry], collect() {
    this.reset();
    for (const { labels, n } of byRequest.values()) this.inc(labels, n);
  } });
  new Histogram({ name: 'heritage_http_request_duration_seconds', help: 'Time from the request to the last byte handed to the socket.', labelNames: ['route'], buckets: LATENCY_BUCKETS, registers: [registry], collect() {
    this.reset();
    for (const [route, counts] of byRoute) {
      this.zero({ route });
      const entry = histogramEntry(this, route);
      LATENCY_BUCKETS.forEach((bound, i) => (entry.bucketValues[bound] = counts.buckets[i] ?? 0));
      entry.sum = counts.sum;
      entry.count = counts.count;
    }
  } });
  new Counter({ name: 'heritage_http_response_bytes_total', help: 'Body bytes sent, by route pattern.', labelNames: ['route'], registers: [registry], collect() {
    this.reset();
    for (const [route, counts] of byRoute) this.inc({ route }, counts.bytes);
  } });
  const rejections = new Counter({ name: 'heritage_rate_limit_rejections_total', help: 'Requests refused with 429 by the rate limit.', registers: [registry] });
  registerSourceMetrics(registry, sources);
  const observer = (method: string, route: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let request = byRequest.get(key);
    if (request === undefined) byRequest.set(key, (request = { labels: { method, route, status }, n: 0 }));
    let counts = byRoute.get(route);
    if (counts === undefined) byRoute.set(route, (counts = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0, bytes: 0 }));
    const [one, all] = [request, counts];
    return (seconds: number, sent: number) => {
      one.n++;
      const bucket = latencyBucket(seconds);
      if (bucket !== -1) all.buckets[bucket] = (all.buckets[bucket] ?? 0) + 1;
      all.sum += seconds;
      all.count++;
      all.bytes += sent;
    };
  };
  return {
    registry,
    scrape: workerScrape(registry) ?? (() => registry.metrics()),
    observe: (method, route = NOT_ROUTED, status, seconds, sent) => observer(method, route, status)(seconds, sent),
    observer,
    rejected: () => rejections.inc(),
  };
}

/** Values read from their owners when scraped. */
function registerSourceMetrics(registry: Registry, { cache, versions, store, gates = [] }: MetricSources): void {
  const registers = [registry];
  new Counter({ name: 'heritage_answer_cache_hits_total', help: 'Answers served from the answer cache.', registers, collect() { this.reset(); this.inc(cache.hits); } });
  new Counter({ name: 'heritage_answer_cache_misses_total', help: 'Answers rendered because the cache did not hold them.', registers, collect() { this.reset(); this.inc(cache.misses); } });
  new Gauge({ name: 'heritage_answer_cache_bytes', help: 'Memory held by cached answers (CACHE_MAX_MB bounds it).', registers, collect() { this.set(cache.size.bytes); } });
  new Gauge({ name: 'heritage_answer_cache_entries', help: 'Answers in the cache.', registers, collect() { this.set(cache.size.entries); } });
  // Across workers: the version every one of them serves, and when the last one saw it.
  new Gauge({ name: 'heritage_catalogue_version', help: 'The catalogue version being served (goes up by one with every import).', registers, aggregator: 'min', collect() {
    const version = versions.current();
    if (version === null) this.reset();
    else this.set(version);
  } });
  new Gauge({ name: 'heritage_catalogue_seen_timestamp_seconds', help: 'When this process first saw the current catalogue version (within VERSION_POLL_MS of its import).', registers, aggregator: 'max', collect() {
    const seenAt = versions.seenAt();
    if (seenAt === null) this.reset();
    else this.set(seenAt / 1000);
  } });
  if (gates.length > 0) {
    new Gauge({ name: 'heritage_gate_turns', help: 'Turns of a gate of picture work (picture uploads, picture renders) running and waiting.', labelNames: ['gate', 'state'], registers, collect() {
      for (const gate of gates) {
        const { running, waiting } = gate.load();
        this.set({ gate: gate.name, state: 'running' }, running);
        this.set({ gate: gate.name, state: 'waiting' }, waiting);
      }
    } });
  }
  if (store.poolStats) {
    const poolStats = store.poolStats.bind(store);
    new Gauge({ name: 'heritage_store_pool_connections', help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one.', labelNames: ['state'], registers, collect() {
      const stats = poolStats();
      for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, stats[state]);
    } });
  }
}

/** GET /metrics for the exempt addresses; 403 for everyone else. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, config: Pick<Config, 'trustProxy'>, allowed: AddressList): void {
  app.get(METRICS_PATH, async (request, reply) => {
    if (!allowed.has(clientAddress(request, config.trustProxy))) throw ERRORS.permissionDenied();
    const text = await metrics.scrape().catch((error: Error) => {
      request.log.warn({ err: error }, 'metrics unavailable');
      throw ERRORS.serviceUnavailable();
    });
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

/** Scrapers address a process by its IP: /metrics, like the probes, skips the Host check. */
export function isMetricsPath(url: string): boolean {
  return url === METRICS_PATH || url.startsWith(`${METRICS_PATH}?`);
}
