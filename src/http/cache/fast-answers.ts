// The fast path for cached answers. A cached answer should cost little more than writing its
// bytes, but Fastify's request object, hook chains, reply object and per-request child
// logger cost several times that (BENCHMARKS.md). So a plain GET or HEAD of an /api/ answer
// already in the answer cache is answered from node's request event, before Fastify, by
// replaying exactly what Fastify sent the last time the same kind of request (method,
// status, encoding) got this answer: the same status, headers and bytes, a fresh request id,
// the same log line and metrics, the cache hit counted. Everything else goes to Fastify:
// a first request, an Origin header (CORS), a client the rate limit counts, a request with a
// body, an unknown, refused or repeated Host, any other method, a server closing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { VersionWatch } from '../../version-watch.js';
import { answerId, type Answer, type AnswerCache, type Encoding, type Peeked } from './answer-cache.js';
import { replyShape, type EncodingChoices, type HeaderChoices } from './answers.js';
import { clientAddress, type AddressList } from '../operations/client-address.js';
import { requestBaseUrl } from '../protocol/host.js';
import type { Metrics } from '../operations/metrics.js';
import { isServicePath } from '../protocol/faces.js';
import { negotiatedKeySuffix } from '../ogc/html.js';
import { hostLines, isCanonicalPath } from '../protocol/request-target.js';
import { lineWriter, logsRequests, REQUEST_ID_HEADER, sentBytes, type RequestIds } from '../operations/request-log.js';

export interface FastAnswerDeps {
  config: Config;
  cache: AnswerCache;
  versions: VersionWatch;
  metrics: Metrics | null;
  exempt: AddressList;
  encodings: EncodingChoices;
  pages: HeaderChoices<boolean>;
  replays: ReplayNotes;
  requestId: RequestIds;
}

/** A request the fast path may answer (eligibility): a GET or HEAD with its target. */
type EligibleRequest = IncomingMessage & { method: 'GET' | 'HEAD'; url: string };

/** URLs whose cache id is kept (cachedAnswer): more distinct ones start the list again. */
const MAX_KEPT_IDS = 1024;

/** A request shape as a small number (a string made and hashed per request cost more): status, HEAD or GET, encoding. */
const shapeKey = (method: string, status: number, encoding: Encoding | null) =>
  status * 8 + (method === 'HEAD' ? 4 : 0) + (encoding === null ? 0 : encoding === 'gzip' ? 1 : 2);

/** Requests whose cached answer Fastify is sending, kept (by the app) until it has sent it. */
export class ReplayNotes {
  private readonly pending = new WeakMap<FastifyRequest, { answer: Answer; key: number; body: Buffer | null }>();

  /** sendAnswer's note: this reply is a cached answer, sent with this status, encoding and body. */
  note(request: FastifyRequest, answer: Answer, status: number, encoding: Encoding | null, body: Buffer | null): void {
    this.pending.set(request, { answer, key: shapeKey(request.method, status, encoding), body: request.method === 'HEAD' ? null : body });
  }

  get(request: FastifyRequest): { answer: Answer; key: number; body: Buffer | null } | undefined {
    return this.pending.get(request);
  }
}

/** Puts the fast path in front of Fastify's request listener. */
export function installFastAnswers(app: FastifyInstance, deps: FastAnswerDeps): void {
  const { config } = deps;
  const eligible = eligibility(deps);
  const logging = logsRequests(config);
  // Recorded once Fastify has sent the answer, with every header its hooks set.
  app.addHook('onResponse', (request, reply, done) => {
    const note = deps.replays.get(request);
    if (note !== undefined && eligible(request.raw) && request.routeOptions.url !== undefined) {
      const headers = reply.getHeaders();
      const head = [REQUEST_ID_HEADER, ''];
      // Connection is node's (or the drain's) to set per response.
      for (const [name, value] of Object.entries(headers)) if (name !== REQUEST_ID_HEADER && name !== 'connection' && value !== undefined) head.push(name, String(value));
      const bytes = sentBytes(request.method, reply.statusCode, headers['content-length']);
      const logLine = logging ? lineWriter(app.log, request.method, request.url, reply.statusCode, bytes) : null;
      const observe = deps.metrics?.observer(request.method, request.routeOptions.url, reply.statusCode) ?? null;
      note.answer.replays.set(note.key, { status: reply.statusCode, head, body: note.body, bytes, observe, logLine });
    }
    done();
  });
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const server = app.server;
  // Fastify's request listener (its routing) is put behind this one.
  const fastify = app.routing;
  server.removeListener('request', fastify);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    if (closing || !eligible(request) || !replay(request, response, started)) fastify(request, response);
  });

  function replay(request: EligibleRequest, response: ServerResponse, started: number): boolean {
    const found = cachedAnswer(request);
    if (found === null) return false;
    const { answer } = found;
    const { status, encoding } = replyShape(answer, request.headers, config, deps.encodings);
    const sent = answer.replays.get(shapeKey(request.method, status, encoding));
    if (sent === undefined) return false;
    deps.cache.touch(found);
    const id = deps.requestId(request);
    // The kept list itself, its id slot filled: node reads it within writeHead and keeps none of it.
    const { head } = sent;
    head[1] = id;
    response.writeHead(sent.status, head);
    if (sent.body === null) response.end();
    else response.end(sent.body);
    const elapsedMs = performance.now() - started;
    sent.logLine?.(id, elapsedMs, clientOf(request, config));
    sent.observe?.(elapsedMs / 1000, sent.bytes);
    return true;
  }

  // The cache id of each URL's last lookup: joining version, base URL, URL and suffix, and
  // hashing the joined string, cost more than the rest of the lookup (issue 48).
  const ids = new Map<string, { version: number; baseUrl: string; suffix: string; id: string }>();

  /** The answer cache's entry for this request, as the route handlers key it (base URL and URL). */
  function cachedAnswer(request: EligibleRequest): Peeked | null {
    const version = deps.versions.current();
    const baseUrl = baseUrlOf(request);
    if (version === null || baseUrl === null) return null;
    // An /ogc/ URL without f is also a page when Accept prefers HTML (pages/headers.ts, http/ogc/html.ts).
    const suffix = negotiatedKeySuffix(request.url, request.headers.accept, deps.pages);
    let kept = ids.get(request.url);
    if (kept === undefined || kept.version !== version || kept.baseUrl !== baseUrl || kept.suffix !== suffix) {
      if (ids.size >= MAX_KEPT_IDS) ids.clear();
      kept = { version, baseUrl, suffix, id: answerId(version, `${baseUrl}\n${request.url}${suffix}`) };
      ids.set(request.url, kept);
    }
    return deps.cache.peekId(kept.id) ?? null;
  }

  // The base URL per Host value (without a trusted proxy nothing else goes into it); a refused
  // Host is left to Fastify's path, which answers it with the 400.
  const baseUrls = new Map<string, string | null>();
  function baseUrlOf(request: IncomingMessage): string | null {
    if (config.trustProxy) return baseUrlOrNull({ headers: request.headers, protocol: 'http' });
    const host = request.headers.host ?? '';
    let baseUrl = baseUrls.get(host);
    if (baseUrl === undefined) {
      if (baseUrls.size >= 256) baseUrls.clear();
      baseUrls.set(host, (baseUrl = baseUrlOrNull({ headers: request.headers, protocol: 'http' })));
    }
    return baseUrl;
  }

  function baseUrlOrNull(origin: { headers: IncomingMessage['headers']; protocol: 'http' }): string | null {
    try {
      return requestBaseUrl(origin, config);
    } catch {
      return null;
    }
  }
}

/**
 * Requests the fast path may answer: what Fastify's hooks would add nothing to. No Origin
 * (CORS headers), not counted by the rate limit, no body, a plain GET or HEAD of an /api/ URL
 * within MAX_URL_BYTES that is already canonical (request-target.ts would not rewrite it, so
 * it is the answer cache's key as sent).
 */
function eligibility({ config, exempt }: FastAnswerDeps) {
  const corsOn = config.corsOrigins !== 'off';
  return (request: IncomingMessage): request is EligibleRequest => {
    const { method, url, headers, socket } = request;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || url.length > config.maxUrlBytes || !isServicePath(url) || !isCanonicalPath(url)) return false;
    if ((corsOn && headers.origin !== undefined) || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    // node keeps the first of several Host headers: such a request is Fastify's to judge.
    if (('encrypted' in socket && socket.encrypted === true) || hostLines(request.rawHeaders) > 1) return false;
    return config.rateLimit === null || exempt.has(clientOf(request, config));
  };
}

/** Each connection's client address, when no proxy is trusted (then it is the socket's). */
const socketClients = new WeakMap<Socket, string>();

/** clientAddress, kept per connection when no proxy is trusted. */
function clientOf(request: IncomingMessage, config: Pick<Config, 'trustProxy'>): string {
  const { socket } = request;
  const kept = config.trustProxy ? undefined : socketClients.get(socket);
  if (kept !== undefined) return kept;
  const client = clientAddress({ ip: socket.remoteAddress ?? '', headers: request.headers }, config.trustProxy);
  if (!config.trustProxy) socketClients.set(socket, client);
  return client;
}
