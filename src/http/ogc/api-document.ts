// GET /ogc/api: the OGC face's OpenAPI 3.0 document, served like /api/v1/openapi.json (kept
// per base URL, ETag/304, compression), as its `service-desc` link's type, or as plain
// JSON with `f=json`. Built at the first request: its examples parse a CQL2 filter, and the
// generated parser is made only when first needed.
import type { RouteHandlerMethod } from 'fastify';
import { CONTENT_TYPE_JSON, CONTENT_TYPE_OPENAPI_30 } from '../../constants.js';
import type { Cql2Reader } from '../../ogc/cql2/filter.js';
import { DOCUMENT_VERSION } from '../api/openapi.js';
import { makeAnswer, type Answer } from '../cache/answer-cache.js';
import { keptAnswers, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { OGC_ERRORS } from '../../errors.js';
import { checkParameters, readFormat, readOgcQuery } from './query.js';
import { datasetQueryParameterNames } from './items-params.js';

export function ogcApiHandler(deps: AnswerDeps, cql2: () => Cql2Reader): RouteHandlerMethod {
  let answers: Record<'openapi' | 'json', (baseUrl: string) => Answer> | undefined;
  return async (request, reply) => {
    const query = readOgcQuery(request.url);
    checkParameters(query, datasetQueryParameterNames(null));
    const f = readFormat(query);
    // Its page for people is /ogc/docs/.
    if (f === 'html') throw OGC_ERRORS.invalidParameter('f', 'json (the API definition\'s page is /ogc/docs/)');
    const format = f ?? 'openapi';
    answers ??= await documentAnswers(deps, cql2);
    return sendAnswer(request, reply, deps, `ogc-api\n${format}\n${request.baseUrl}`, answers[format](request.baseUrl));
  };
}

/** The document's answers, as OpenAPI and as plain JSON, per base URL; its modules loaded when first asked for (as api/openapi.ts). */
async function documentAnswers(deps: AnswerDeps, cql2: () => Cql2Reader): Promise<Record<'openapi' | 'json', (baseUrl: string) => Answer>> {
  const { buildOgcApiDocument, withOgcServer } = await import('../../openapi/ogc/document.js');
  const document = buildOgcApiDocument({ rateLimited: deps.config.rateLimit !== null, cql2 });
  const bytes = (baseUrl: string) => Buffer.from(JSON.stringify(withOgcServer(document, baseUrl)));
  return {
    openapi: keptAnswers((baseUrl) => makeAnswer(DOCUMENT_VERSION, bytes(baseUrl), CONTENT_TYPE_OPENAPI_30)),
    json: keptAnswers((baseUrl) => makeAnswer(DOCUMENT_VERSION, bytes(baseUrl), CONTENT_TYPE_JSON)),
  };
}
