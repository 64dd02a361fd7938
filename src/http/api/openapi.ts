// GET /api/v1/openapi.json: the document built once per server, when first asked for (building
// it is some 20 ms of every start, and most servers and tests never ask), its `servers` the request's
// base URL (like every link of the API, so the Host check applies). The bytes are kept per
// base URL, with an ETag and compression like every other answer.
import type { RouteHandlerMethod } from 'fastify';
import { buildOpenApiDocument, withServer } from '../../openapi/document.js';
import { makeAnswer } from '../cache/answer-cache.js';
import { keptAnswers, sendAnswer, type AnswerDeps } from '../cache/answers.js';

/** The document does not change with the catalogue: version 0 in its ETag. */
export const DOCUMENT_VERSION = 0;

export function openApiHandler(deps: AnswerDeps): RouteHandlerMethod {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  const answerFor = keptAnswers((baseUrl) => {
    document ??= buildOpenApiDocument({ rateLimited: deps.config.rateLimit !== null });
    return makeAnswer(DOCUMENT_VERSION, Buffer.from(JSON.stringify(withServer(document, baseUrl))));
  });
  return async (request, reply) => {
    const baseUrl = request.baseUrl;
    return sendAnswer(request, reply, deps, `openapi\n${baseUrl}`, answerFor(baseUrl));
  };
}
