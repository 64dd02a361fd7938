// How a 200 leaves: from the answer cache when this URL was rendered for the current
// catalogue, with a strong ETag (If-None-Match → 304, no body), Cache-Control, and with
// --compress a gzip or brotli body compressed once per answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { VersionWatch } from '../version-watch.js';
import { encodedBody, makeAnswer, type Answer, type AnswerCache, type Encoding } from './answer-cache.js';
import { CONTENT_TYPE_JSON } from '../constants.js';

export interface AnswerDeps {
  cache: AnswerCache;
  versions: VersionWatch;
  config: Config;
}

/** The cached answer for this key at the current catalogue version, or a fresh one. */
export async function cachedAnswer(deps: AnswerDeps, key: string, render: () => Promise<{ version: number; body: unknown }>): Promise<Answer> {
  return cachedBytes(deps, key, async () => {
    const { version, body } = await render();
    return { version, bytes: Buffer.from(JSON.stringify(body)), contentType: CONTENT_TYPE_JSON };
  });
}

/** The same for answers that are not JSON; empty bytes are sent as 204 No Content. */
export async function cachedBytes(deps: AnswerDeps, key: string, render: () => Promise<{ version: number; bytes: Buffer; contentType: string }>): Promise<Answer> {
  const version = deps.versions.current();
  const cached = version === null ? undefined : deps.cache.get(version, key);
  if (cached) return cached;
  const rendered = await render();
  // Stored under the version its rows were read from, never the one polled.
  const answer = makeAnswer(rendered.version, rendered.bytes, rendered.contentType);
  deps.cache.set(key, answer);
  return answer;
}

export function sendAnswer(request: FastifyRequest, reply: FastifyReply, deps: AnswerDeps, key: string, answer: Answer): FastifyReply {
  reply.header('etag', answer.etag).header('cache-control', deps.config.cacheControl);
  if (answer.body.length > 0) reply.header('content-type', answer.contentType);
  if (matchesEtag(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  if (answer.body.length === 0) return reply.code(204).send();
  const encoding = deps.config.compress ? chooseEncoding(request.headers['accept-encoding']) : null;
  if (encoding === null) return reply.code(200).send(answer.body);
  const hadIt = answer.encoded[encoding] !== undefined;
  const body = encodedBody(answer, encoding);
  if (!hadIt) deps.cache.grew(key, answer);
  return reply.code(200).header('content-encoding', encoding).send(body);
}

/** If-None-Match uses the weak comparison: W/"x" matches "x"; * matches anything. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Brotli when accepted, else gzip when accepted (q > 0), else none. */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}
