// Every answer the black-box suites get on an /api/ path is checked against the service's
// own OpenAPI document (request() in http.ts calls this): the path must match a documented
// template, the method and status must be documented there, the content type must be the
// documented one, the body must match its schema and the required headers must be present.
// An answer that breaks the document fails the test that asked for it.
import type { IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { keptValidators } from './kept-validators.js';

type Json = Record<string, any>;

/** The fullest document: with rate limiting on, 429 is documented too. */
export const CHECKED_DOCUMENT: Json = buildOpenApiDocument({ rateLimited: true });
const DOCUMENT_ID = 'https://heritage-api.invalid/openapi.json';

// Each body schema of the document compiled once: by its $ref, so that the many responses
// sharing a component (every error's body, say) share one compiled function; and once for
// every test process, kept as Ajv's standalone code (kept-validators.ts). Not checked
// against the meta-schema: the document is checked whole by an OpenAPI validator in
// http/openapi.test.ts.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, code: { source: true } });
ajv.addSchema({ $id: DOCUMENT_ID, components: CHECKED_DOCUMENT.components }, DOCUMENT_ID);

/** Not the API: the human-readable page and its assets. */
const UNCHECKED_PREFIXES = ['/api/docs/'];
const UNCHECKED_PATHS = ['/api/docs'];

const OPERATIONS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Template {
  path: string;
  pattern: RegExp;
}

const TEMPLATES: Template[] = Object.keys(CHECKED_DOCUMENT.paths).map((path) => ({
  path,
  pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
}));

export interface CheckedRequest {
  method: string;
  pathAndQuery: string;
  headers: Record<string, string>;
}

export interface CheckedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** A sentence saying how the answer breaks the document, or null when it keeps to it. */
export function checkApiAnswer(request: CheckedRequest, answer: CheckedAnswer): string | null {
  const path = request.pathAndQuery.split('?')[0]!;
  if (!(path === '/api' || path.startsWith('/api/')) || UNCHECKED_PREFIXES.some((p) => path.startsWith(p)) || UNCHECKED_PATHS.includes(path)) return null;
  const where = `${request.method} ${request.pathAndQuery.slice(0, 100)} → ${answer.status}`;
  const template = TEMPLATES.find((t) => t.pattern.test(path));
  const problem = template === undefined ? checkUndocumentedPath(request, answer) : checkOperation(template, request, answer);
  return problem === null ? null : `the answer breaks the OpenAPI document: ${where}: ${problem}`;
}

/** Outside every template only a redirect to the slashed path or an error can come. */
function checkUndocumentedPath(request: CheckedRequest, answer: CheckedAnswer): string | null {
  if (answer.status === 301) {
    const target = String(answer.headers.location ?? '').split('?')[0]!;
    return TEMPLATES.some((t) => t.pattern.test(target)) ? null : `redirects to an undocumented path ${target}`;
  }
  if (answer.status < 400) return 'an undocumented path answered with success';
  const error = CHECKED_DOCUMENT.components.responses.NotFound as Json;
  return checkBody(request, answer, error);
}

function checkOperation(template: Template, request: CheckedRequest, answer: CheckedAnswer): string | null {
  const item = CHECKED_DOCUMENT.paths[template.path] as Json;
  const operation = item[request.method.toLowerCase()] as Json | undefined;
  let response = operation === undefined ? otherMethodResponse(item, answer.status) : (operation.responses[String(answer.status)] as Json | undefined);
  if (operation === undefined && response === undefined) return `${request.method} is not documented for ${template.path}, and ${answer.status} is not what the path says other methods get`;
  if (response === undefined) return `status ${answer.status} is not documented for ${request.method} ${template.path}`;
  if (typeof response.$ref === 'string') response = resolve(response.$ref);
  const missing = Object.entries((response.headers ?? {}) as Json)
    .filter(([name, header]) => header.required === true && answer.headers[name.toLowerCase()] === undefined)
    .map(([name]) => name);
  if (missing.length > 0) return `missing required header(s) ${missing.join(', ')}`;
  return checkBody(request, answer, response);
}

/**
 * A method that is no operation of the path: the path item's description names the response
 * it gets (`MethodNotAllowed`, a 405), or an error every operation of the path documents.
 */
function otherMethodResponse(item: Json, status: number): Json | undefined {
  const said = /answered (\d{3}) \(the `(\w+)` response of the components\)/.exec(String(item.description ?? ''));
  if (said !== null && status === Number(said[1])) return CHECKED_DOCUMENT.components.responses[said[2]!] as Json | undefined;
  const operations = OPERATIONS.filter((method) => item[method] !== undefined).map((method) => item[method] as Json);
  if (status < 400 || operations.length === 0) return undefined;
  return operations.every((o) => o.responses[String(status)] !== undefined) ? operations[0]!.responses[String(status)] : undefined;
}

function checkBody(request: CheckedRequest, answer: CheckedAnswer, response: Json): string | null {
  const contentType = answer.headers['content-type'];
  if (answer.bytes.length === 0) {
    if (!bodyMayBeEmpty(request, answer, response)) return 'no body, where one is documented';
    // A 304 or a preflight says nothing of a body; HEAD gives the type its body would have.
    if (answer.status === 304 || contentType === undefined) return null;
  } else if (request.method === 'HEAD') {
    return 'HEAD answered with a body';
  }
  const media = (response.content ?? {})[contentType ?? ''] as Json | undefined;
  if (media === undefined) return `content type ${contentType} is not documented (${Object.keys(response.content ?? {}).join(', ') || 'no body'})`;
  if (answer.bytes.length === 0) return null;
  let body: unknown;
  try {
    body = JSON.parse(decode(answer).toString('utf8'));
  } catch {
    return 'the body is not JSON';
  }
  const validate = validatorFor(media.schema);
  return validate(body) ? null : `the body does not match ${JSON.stringify(media.schema)}: ${ajv.errorsText(validate.errors)}`;
}

/** HEAD and 304 never have a body; a CORS preflight's 200 is empty, as the OPTIONS operation says. */
function bodyMayBeEmpty(request: CheckedRequest, answer: CheckedAnswer, response: Json): boolean {
  const preflight = request.method === 'OPTIONS' && Object.keys(request.headers).some((h) => h.toLowerCase() === 'access-control-request-method');
  return response.content === undefined || request.method === 'HEAD' || answer.status === 304 || preflight;
}

/** Every body schema of the document, by its $ref or its text: what validatorFor is asked for. */
function bodySchemas(): Map<string, Json> {
  const schemas = new Map<string, Json>();
  const add = (response: Json | undefined) => {
    for (const media of Object.values((response?.content ?? {}) as Json)) if (media.schema !== undefined) schemas.set(schemaKey(media.schema), media.schema);
  };
  for (const item of Object.values(CHECKED_DOCUMENT.paths as Json)) {
    for (const method of OPERATIONS) for (const response of Object.values((item[method]?.responses ?? {}) as Json)) add(response);
  }
  for (const response of Object.values((CHECKED_DOCUMENT.components.responses ?? {}) as Json)) add(response);
  return schemas;
}

function schemaKey(schema: Json): string {
  return typeof schema.$ref === 'string' ? schema.$ref : JSON.stringify(schema);
}

let validators: Map<string, ValidateFunction> | undefined;

function validatorFor(schema: Json): ValidateFunction {
  validators ??= keptValidators(ajv, CHECKED_DOCUMENT, bodySchemas(), (s) => (typeof s.$ref === 'string' ? { $ref: `${DOCUMENT_ID}${s.$ref}` } : s));
  const validate = validators.get(schemaKey(schema));
  if (validate === undefined) throw new Error(`no validator for ${schemaKey(schema)}: bodySchemas() misses it`);
  return validate;
}

function resolve(ref: string): Json {
  return ref.replace(/^#\//, '').split('/').reduce<Json>((node, part) => node[part], CHECKED_DOCUMENT);
}

function decode(answer: CheckedAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.bytes);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.bytes);
  return answer.bytes;
}
