// GET /api/v1/openapi.json: the document built once per server, its `servers` the request's
// base URL (like every link of the API, so the Host check applies). The bytes are kept per
// base URL, with an ETag and compression like every other answer.
import type { RouteHandlerMethod } from 'fastify';
import { buildOpenApiDocument, withServer } from '../../openapi/document.js';
import { makeAnswer, type Answer } from '../cache/answer-cache.js';
import { sendAnswer, type AnswerDeps } from '../cache/answers.js';

/** Base URLs remembered; more only when ALLOWED_HOSTS=* lets any Host through. */
const MAX_BASE_URLS = 16;
/** The document does not change with the catalogue: version 0 in its ETag. */
const DOCUMENT_VERSION = 0;

export function openApiHandler(deps: AnswerDeps): RouteHandlerMethod {
  const document = buildOpenApiDocument({ rateLimited: deps.config.rateLimit !== null });
  const answers = new Map<string, Answer>();
  const answerFor = (baseUrl: string): Answer => {
    let answer = answers.get(baseUrl);
    if (answer === undefined) {
      answer = makeAnswer(DOCUMENT_VERSION, Buffer.from(JSON.stringify(withServer(document, baseUrl))));
      const oldest = answers.keys().next();
      if (answers.size >= MAX_BASE_URLS && !oldest.done) answers.delete(oldest.value);
      answers.set(baseUrl, answer);
    }
    return answer;
  };
  return async (request, reply) => {
    const baseUrl = request.baseUrl;
    return sendAnswer(request, reply, deps, `openapi\n${baseUrl}`, answerFor(baseUrl));
  };
}
