// How every JSON answer leaves: exactly `application/json` (no charset parameter), and on
// API paths the spec's Vary and Allow headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ALLOW_METHODS, CONTENT_TYPE_JSON, VARY_VALUE } from '../../constants.js';
import { isApiPath, isOgcPath } from './faces.js';
import { errorBody, ogcErrorBody, type ApiError } from '../../errors.js';
import type { Config } from '../../config.js';
import { corsVary } from './cors.js';
import { sendErrorPage, wantsErrorPage } from '../site/error-pages.js';

/** Sent as bytes: Fastify would append `; charset=utf-8` to a JSON string's content type. */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', CONTENT_TYPE_JSON).send(Buffer.from(JSON.stringify(body)));
}

/** An error's answer: to a browser a page (outside /api/ and the data files), on /ogc/ the OGC exception body, elsewhere `{"detail": …}`. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (wantsErrorPage(reply.request)) return sendErrorPage(reply, error);
  return sendJson(reply, error.status, isOgcPath(reply.request.url) ? ogcErrorBody(error) : errorBody(error));
}

/** onSend hook: the headers every response on an API path carries. */
export function apiHeaders(config: Pick<Config, 'compress' | 'corsOrigins'>) {
  const vary = config.compress ? `${VARY_VALUE}, Accept-Encoding` : VARY_VALUE;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!isApiPath(request.url)) return;
    reply.header('vary', [vary, ...corsVary(request, config)].join(', '));
    reply.header('allow', ALLOW_METHODS);
  };
}
