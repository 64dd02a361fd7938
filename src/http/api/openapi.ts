// GET /api/v1/openapi.json: the document built once per server, when first asked for (its
// modules and the schemas it describes, TypeBox's two hundred modules among them, are loaded
// then too: some 0.1 s of CPU that most servers and tests never need), its `servers` the
// request's base URL (like every link of the API, so the Host check applies). The bytes are
// kept per base URL, with an ETag and compression like every other answer.
import type { RouteHandlerMethod } from 'fastify';
import { makeAnswer, type Answer } from '../cache/answer-cache.js';
import { keptAnswers, sendAnswer, type AnswerDeps } from '../cache/answers.js';

/** The document does not change with the catalogue: version 0 in its ETag. */
export const DOCUMENT_VERSION = 0;

export function openApiHandler(deps: AnswerDeps): RouteHandlerMethod {
  let answerFor: ((baseUrl: string) => Answer) | undefined;
  return async (request, reply) => {
    answerFor ??= await documentAnswers(deps);
    const baseUrl = request.baseUrl;
    return sendAnswer(request, reply, deps, `openapi\n${baseUrl}`, answerFor(baseUrl));
  };
}

async function documentAnswers(deps: AnswerDeps): Promise<(baseUrl: string) => Answer> {
  const { buildOpenApiDocument, withServer } = await import('../../openapi/document.js');
  const document = buildOpenApiDocument({ rateLimited: deps.config.rateLimit !== null });
  return keptAnswers((baseUrl) => makeAnswer(DOCUMENT_VERSION, Buffer.from(JSON.stringify(withServer(document, baseUrl)))));
}
