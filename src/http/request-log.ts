// The logger (pino, Fastify's own) and one line per request, written from one onResponse
// hook through an asynchronous destination so that logging costs the request little.
// Every answer carries X-Request-Id: the client's, when it is a sane token, or a new UUID.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import pinoPretty from 'pino-pretty';
import type { Config } from '../config.js';
import { clientAddress } from './client-address.js';
import type { Metrics } from './metrics.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;
const QUIET_LEVELS = new Set(['fatal', 'error', 'warn', 'silent']);

/** Fastify's logger options: JSON lines on standard output, or pino-pretty for a terminal. */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>, stream?: NodeJS.WritableStream) {
  if (config.logLevel === 'silent') return { level: 'silent' };
  const destination = stream ?? (config.logFormat === 'pretty'
    ? pinoPretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
    : pino.destination({ dest: 1, sync: false }));
  return { level: config.logLevel, stream: destination };
}

/** Fastify's genReqId: the client's X-Request-Id when sane (bounded, no spaces or quotes), else a UUID. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export const REQUEST_ID_LOG_LABEL = 'request_id';

/** Register before other onRequest hooks, so that answers they refuse carry the id too. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}

/** One log line and the metrics of every finished request. */
export function registerRequestLog(app: FastifyInstance, config: Pick<Config, 'logLevel' | 'trustProxy'>, metrics: Metrics | null): void {
  const logging = !QUIET_LEVELS.has(config.logLevel);
  if (!logging && metrics === null) return;
  app.addHook('onResponse', (request, reply, done) => {
    const bytes = sentBytes(request, reply);
    if (logging) {
      request.log.info({
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
        bytes,
        client: clientAddress(request, config.trustProxy),
      }, 'request');
    }
    metrics?.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000, bytes);
    done();
  });
}

/** Body bytes: HEAD and 304 send none; otherwise the Content-Length every answer here has. */
function sentBytes(request: FastifyRequest, reply: FastifyReply): number {
  if (request.method === 'HEAD' || reply.statusCode === 304 || reply.statusCode === 204) return 0;
  const length = Number(reply.getHeader('content-length'));
  return Number.isFinite(length) ? length : 0;
}
