// Requests too broken to reach Fastify's router (bad HTTP syntax, oversized headers, too
// slow to arrive, CONNECT) still get a JSON answer in the API's shape, then the connection
// closes.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ALLOW_METHODS, NOSNIFF } from '../../constants.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ERRORS, REASON_PHRASES, errorBody } from '../../errors.js';
import { apiHeaders, sendError } from './reply.js';

const NOSNIFF_LINE = `${NOSNIFF[0]}: ${NOSNIFF[1]}\r\n`;
/** A request line that alone fills most of the header limit is a URL problem, not a header one. */
const LONG_REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\r\n]{8192}/;

function answerFor(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const longLine = error.rawPacket !== undefined && LONG_REQUEST_LINE.test(error.rawPacket.toString('latin1', 0, 8300));
    return longLine ? ERRORS.urlTooLong() : ERRORS.headersTooLarge();
  }
  // HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS ran out before the request was complete.
  return error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? ERRORS.requestTimeout() : ERRORS.badRequest();
}

/** An error written straight to the socket, the connection closed after it. */
function rawAnswer(error: ApiError, headers: string = ''): string {
  const body = JSON.stringify(errorBody(error));
  const head = `HTTP/1.1 ${error.status} ${REASON_PHRASES[error.status]}\r\nContent-Type: application/json\r\n${headers}`;
  return `${head}Content-Length: ${Buffer.byteLength(body)}\r\n${NOSNIFF_LINE}Connection: close\r\n\r\n${body}`;
}

export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A request can be answered and its body still be broken (`Transfer-Encoding: gzip`):
  // never a second answer on the same connection (node's own handler checks the same).
  const message: unknown = Reflect.get(socket, '_httpMessage');
  const answered = typeof message === 'object' && message !== null && 'headersSent' in message && message.headersSent === true;
  if (answered) return void socket.end();
  if (!socket.writable) return void socket.destroy();
  socket.end(rawAnswer(answerFor(error)));
}

/**
 * Fastify's frameworkErrors: a malformed URL is a 400; a path parameter beyond the
 * router's length limit names no record, so 404. These answers skip the hooks, so the API
 * headers are set here.
 */
export function frameworkErrorHandler(config: Parameters<typeof apiHeaders>[0]) {
  const headers = apiHeaders(config);
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    void headers(request, reply);
    reply.header(NOSNIFF[0], NOSNIFF[1]);
    sendError(reply, error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? ERRORS.notFound() : ERRORS.badRequest());
  };
}

/**
 * The server's 'connect' listener: without one, node drops a CONNECT request without a
 * word. This service proxies nothing: a JSON 405 like any other method it does not allow.
 */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.end(rawAnswer(ERRORS.methodNotAllowed('CONNECT'), `Allow: ${ALLOW_METHODS}\r\n`));
}

/** Fastify's refusals of a request's body, by code: its own sentences, kept as entries of the table. */
const BODY_REFUSALS: ReadonlyMap<string, () => ApiError> = new Map([
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', ERRORS.unsupportedMediaType],
  ['FST_ERR_CTP_BODY_TOO_LARGE', ERRORS.bodyTooLarge],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', ERRORS.bodyLengthMismatch],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', ERRORS.emptyJsonBody],
  ['FST_ERR_CTP_INVALID_JSON_BODY', ERRORS.invalidJsonBody],
  ['FST_ERR_ROUTE_MISSING_CONTENT_TYPE', ERRORS.queryWithoutContentType],
]);
/** What @fastify/static refuses (http-errors carry no code), by status. */
const FILE_REFUSALS: ReadonlyMap<number, () => ApiError> = new Map([
  [403, ERRORS.outsideFolder],
  [412, ERRORS.preconditionFailed],
  [416, ERRORS.rangeNotSatisfiable],
]);

/**
 * A client error raised by Fastify or a plugin (a 4xx `statusCode`) as its entry of the
 * table; null for anything else, a server error. One the table does not know is a bad request.
 */
export function clientRefusal(error: unknown): ApiError | null {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return null;
  const status = error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  const refusal = BODY_REFUSALS.get(code) ?? FILE_REFUSALS.get(status) ?? ERRORS.badRequest;
  return refusal();
}
