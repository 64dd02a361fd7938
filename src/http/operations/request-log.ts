// The logger (pino, Fastify's own) and one line per request, written from one onResponse
// hook through an asynchronous destination so that logging costs the request little.
// Every answer carries X-Request-Id: the client's, when it is a sane token, or a new UUID.
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from '../../config.js';
import { clientAddress } from './client-address.js';
import { batchedStdout } from './log-batch.js';
import { uuidSource } from './request-ids.js';
import type { Metrics } from './metrics.js';
import { NOSNIFF } from '../../constants.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;
const QUIET_LEVELS = new Set(['fatal', 'error', 'warn', 'silent']);

/** Where a server's log goes, held for the server's life: closed with it. */
export interface LogDestination {
  stream: { write(line: string): unknown };
  close(): void;
}

/** JSON lines on standard output in batches, or pino-pretty for a terminal; nothing when silent. */
export async function logDestination(config: Pick<Config, 'logLevel' | 'logFormat'>): Promise<LogDestination | null> {
  if (config.logLevel === 'silent') return null;
  if (config.logFormat !== 'pretty') {
    const batch = batchedStdout();
    return { stream: batch, close: () => batch.close() };
  }
  // Loaded only for this format, which people read at a terminal: JSON lines need none of it.
  const { default: pinoPretty } = await import('pino-pretty');
  const pretty = pinoPretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return { stream: pretty, close: () => undefined };
}

/** Fastify's logger options: the level, and the stream lines go to (none when silent). */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream: { write(line: string): unknown } | undefined) {
  if (config.logLevel === 'silent' || stream === undefined) return { level: 'silent' };
  return { level: config.logLevel, stream };
}

/** A request's id: the client's X-Request-Id when sane (bounded, no spaces or quotes), else a new UUID. */
export type RequestIds = (request: IncomingMessage) => string;

/** Fastify's genReqId and the fast path's, one per app (its UUIDs are made in batches: request-ids.ts). */
export function requestIds(): RequestIds {
  const uuid = uuidSource();
  return (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : uuid();
  };
}

export const REQUEST_ID_LOG_LABEL = 'request_id';

/**
 * Register before other onRequest hooks, so that answers they refuse carry the id too, and
 * NOSNIFF: no answer of this site is ever read as another type than it says.
 */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id).header(NOSNIFF[0], NOSNIFF[1]);
    done();
  });
}

/** Levels at which the request log line is written (info and below). */
export function logsRequests(config: Pick<Config, 'logLevel'>): boolean {
  return !QUIET_LEVELS.has(config.logLevel);
}

/** A password reset link's token, which is its secret for an hour (site/paths.ts CONTRIBUTE_PATHS.reset). */
const RESET_TOKEN = /^(\/account\/reset\/)[^/?#]+/;

/** The fields of a request's log line (besides its request id), for Fastify's path and the fast path; a reset link's token is never written. */
export function requestLine(method: string, url: string, status: number, elapsedMs: number, bytes: number, client: string) {
  return { method, url: url.replace(RESET_TOKEN, '$1…'), status, duration_ms: Math.round(elapsedMs * 100) / 100, bytes, client };
}

/** Writes one request's line: the request id, elapsed time and client vary; the rest is fixed. */
export type LineWriter = (id: string, elapsedMs: number, client: string) => void;

const ID_MARK = 'REQUEST-ID-MARK';
const CLIENT_MARK = 'CLIENT-MARK';
const ELAPSED_MARK = 987654321.25;
const TIME_MARK = '\u0001';
/** pino's level number of info. */
const INFO_LEVEL = 30;

/**
 * The fast path's log line for a fixed method, URL, status and size, byte for byte pino's:
 * pino serialises the line once with marks where the request id, time, duration and client
 * go, and each request fills them in and hands the line to pino's stream. pino's own call
 * (a new object, its keys walked and escaped) cost about as much as the rest of a cached
 * answer. Loggers this cannot reproduce (not pino, a mixin, hooks) get log.info.
 */
export function lineWriter(log: FastifyBaseLogger, method: string, url: string, status: number, bytes: number): LineWriter {
  const fields = (id: string, elapsedMs: number, client: string) => ({ [REQUEST_ID_LOG_LABEL]: id, ...requestLine(method, url, status, elapsedMs, bytes, client) });
  const { asJsonSym, timeSym, streamSym, mixinSym, hooksSym } = pino.symbols;
  // pino's internals, read by its own symbols: what each is, is checked before it is used.
  const stream: unknown = Reflect.get(log, streamSym);
  const asJson: unknown = Reflect.get(log, asJsonSym);
  const time: unknown = Reflect.get(log, timeSym);
  const hooks: unknown = Reflect.get(log, hooksSym);
  const reproducible = typeof asJson === 'function' && typeof time === 'function' && isLineStream(stream) && !Reflect.get(log, mixinSym) &&
    !(typeof hooks === 'object' && hooks !== null && Reflect.get(hooks, 'streamWrite')) && !Reflect.get(stream, Symbol.for('pino.metadata'));
  if (!reproducible) return (id, elapsedMs, client) => log.info(fields(id, elapsedMs, client), 'request');
  const template: string = asJson.call(log, fields(ID_MARK, ELAPSED_MARK, CLIENT_MARK), 'request', INFO_LEVEL, TIME_MARK);
  const [beforeTime, afterTime] = cut(template, TIME_MARK);
  const [beforeId, afterId] = cut(afterTime, ID_MARK);
  const [beforeElapsed, afterElapsed] = cut(afterId, String(ELAPSED_MARK));
  const [beforeClient, end] = cut(afterElapsed, CLIENT_MARK);
  const timeText = time === pino.stdTimeFunctions.epochTime ? epochTimeText() : () => time.call(log);
  return (id, elapsedMs, client) => {
    stream.write(beforeTime + timeText() + beforeId + id + beforeElapsed + hundredths(elapsedMs) + beforeClient + client + end);
  };
}

/**
 * pino's epochTime (`,"time":` and Date.now()), its text made once per millisecond and from
 * two small integers: a number past 2^31 is written by V8's general (shortest round-trip)
 * conversion, several hundred instructions a line (issue 48).
 */
function epochTimeText(): () => string {
  let lastMs = -1;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      const high = Math.floor(now / 1e6);
      const low = String(now - high * 1e6);
      text = high > 0 ? `,"time":${high}${'000000'.slice(low.length)}${low}` : `,"time":${now}`;
    }
    return text;
  };
}

/**
 * `String(Math.round(ms * 100) / 100)`, made from integers: the double nearest n/100 is
 * written as n/100's decimals, so the text is the same, without V8's conversion of a fraction.
 */
export function hundredths(ms: number): string {
  const n = Math.round(ms * 100);
  if (!(n >= 0 && n < 1e9)) return String(n / 100);
  const whole = Math.floor(n / 100);
  const cents = n - whole * 100;
  if (cents === 0) return String(whole);
  if (cents % 10 === 0) return `${whole}.${cents / 10}`;
  return `${whole}.${cents < 10 ? '0' : ''}${cents}`;
}

function isLineStream(stream: unknown): stream is { write(line: string): void } {
  return typeof stream === 'object' && stream !== null && typeof Reflect.get(stream, 'write') === 'function';
}

function cut(text: string, mark: string): [string, string] {
  const at = text.indexOf(mark);
  if (at === -1) throw new Error(`log line template without ${JSON.stringify(mark)}: ${text}`);
  return [text.slice(0, at), text.slice(at + mark.length)];
}

/** One log line and the metrics of every finished request. */
export function registerRequestLog(app: FastifyInstance, config: Pick<Config, 'logLevel' | 'trustProxy'>, metrics: Metrics | null): void {
  const logging = logsRequests(config);
  if (!logging && metrics === null) return;
  app.addHook('onResponse', (request, reply, done) => {
    const bytes = sentBytes(request.method, reply.statusCode, reply.getHeader('content-length'));
    if (logging) {
      const client = clientAddress(request, config.trustProxy);
      request.log.info(requestLine(request.method, request.url, reply.statusCode, reply.elapsedTime, bytes, client), 'request');
    }
    metrics?.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000, bytes);
    done();
  });
}

/** Body bytes: HEAD, 204 and 304 send none; otherwise the Content-Length every answer here has. */
export function sentBytes(method: string, status: number, contentLength: unknown): number {
  if (method === 'HEAD' || status === 304 || status === 204) return 0;
  const length = Number(contentLength);
  return Number.isFinite(length) ? length : 0;
}
