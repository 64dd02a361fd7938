// Requests too broken to reach Fastify's router (bad HTTP syntax, oversized headers, too
// slow to arrive, CONNECT) still get a JSON answer in the API's shape, then the connection
// closes.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ALLOW_METHODS, NOSNIFF } from '../../constants.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, errorBody, methodNotAllowed, notFound } from '../errors.js';
import { apiHeaders, sendError } from './reply.js';

const STATUS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers too large.'],
  // HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS ran out before the request was complete.
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timed out.'],
};
const NOSNIFF_LINE = `${NOSNIFF[0]}: ${NOSNIFF[1]}\r\n`;
const BAD_REQUEST: [number, string, string] = [400, 'Bad Request', 'Bad request.'];
const URL_TOO_LONG: [number, string, string] = [414, 'URI Too Long', 'Request URL too long.'];
/** A request line that alone fills most of the header limit is a URL problem, not a header one. */
const LONG_REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\r\n]{8192}/;

function answerFor(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): [number, string, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW' && error.rawPacket && LONG_REQUEST_LINE.test(error.rawPacket.toString('latin1', 0, 8300))) return URL_TOO_LONG;
  return STATUS[error.code ?? ''] ?? BAD_REQUEST;
}

export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A request can be answered and its body still be broken (`Transfer-Encoding: gzip`):
  // never a second answer on the same connection (node's own handler checks the same).
  const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (answered) return void socket.end();
  if (!socket.writable) return void socket.destroy();
  const [status, reason, detail] = answerFor(error);
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${NOSNIFF_LINE}Connection: close\r\n\r\n${body}`,
  );
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
    sendError(reply, error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? notFound() : badRequest());
  };
}

/**
 * The server's 'connect' listener: without one, node drops a CONNECT request without a
 * word. This service proxies nothing: a JSON 405 like any other method it does not allow.
 */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  const body = JSON.stringify(errorBody(methodNotAllowed('CONNECT')));
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nAllow: ${ALLOW_METHODS}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${NOSNIFF_LINE}Connection: close\r\n\r\n${body}`,
  );
}
