// GET /ogc/api: the OGC face's OpenAPI 3.0 document, served like /api/v1/openapi.json (kept
// per base URL, ETag/304, compression), as its `service-desc` link's type, or as plain
// JSON with `f=json`. Built at the first request: its examples parse a CQL2 filter, and the
// generated parser is made only when first needed.
import type { RouteHandlerMethod } from 'fastify';
import { CONTENT_TYPE_JSON, CONTENT_TYPE_OPENAPI_30 } from '../../constants.js';
import type { Cql2Reader } from '../../ogc/cql2/filter.js';
import type { JsonObject } from '../../openapi/components.js';
import { buildOgcApiDocument, withOgcServer } from '../../openapi/ogc/document.js';
import { DOCUMENT_VERSION } from '../api/openapi.js';
import { makeAnswer } from '../cache/answer-cache.js';
import { keptAnswers, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { OGC_ERRORS } from '../../errors.js';
import { checkParameters, FORMAT_PARAMETERS, readFormat, readOgcQuery } from './query.js';

export function ogcApiHandler(deps: AnswerDeps, cql2: () => Cql2Reader): RouteHandlerMethod {
  let document: JsonObject | null = null;
  const bytes = (baseUrl: string) => {
    document ??= buildOgcApiDocument({ rateLimited: deps.config.rateLimit !== null, cql2 });
    return Buffer.from(JSON.stringify(withOgcServer(document, baseUrl)));
  };
  const answers = {
    openapi: keptAnswers((baseUrl) => makeAnswer(DOCUMENT_VERSION, bytes(baseUrl), CONTENT_TYPE_OPENAPI_30)),
    json: keptAnswers((baseUrl) => makeAnswer(DOCUMENT_VERSION, bytes(baseUrl), CONTENT_TYPE_JSON)),
  };
  return async (request, reply) => {
    const query = readOgcQuery(request.url);
    checkParameters(query, FORMAT_PARAMETERS);
    const f = readFormat(query);
    // Its page for people is /ogc/docs/.
    if (f === 'html') throw OGC_ERRORS.invalidParameter('f', 'json (the API definition\'s page is /ogc/docs/)');
    const format = f ?? 'openapi';
    return sendAnswer(request, reply, deps, `ogc-api\n${format}\n${request.baseUrl}`, answers[format](request.baseUrl));
  };
}
