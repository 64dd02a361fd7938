// How a 200 leaves: from the answer cache when this URL was rendered for the current
// catalogue, with a strong ETag (If-None-Match → 304, no body), Cache-Control, and with
// --compress a gzip or brotli body compressed once per answer, chosen by Accept-Encoding's
// q-values, each encoding with an ETag of its own.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { Config } from '../../config.js';
import type { CatalogueReader } from '../../store/store.js';
import type { VersionWatch } from '../../version-watch.js';
import { encodedBody, makeAnswer, type Answer, type AnswerCache, type Encoding } from './answer-cache.js';
import { CONTENT_TYPE_JSON } from '../../constants.js';
import { stringifyAnswer } from '../../json-text.js';
import type { ReplayNotes } from './fast-answers.js';

export interface AnswerDeps {
  cache: AnswerCache;
  versions: VersionWatch;
  config: Config;
  encodings: EncodingChoices;
  /** Accept's values read: whether each prefers a page to JSON (on /ogc/). */
  pages: HeaderChoices<boolean>;
  /** Where the fast path learns what was sent (null: no fast path). */
  replays: ReplayNotes | null;
}

/** Base URLs remembered by keptAnswers; more only when ALLOWED_HOSTS=* lets any Host through. */
const MAX_KEPT_ANSWERS = 16;

/**
 * Answers that do not change with the catalogue (an API definition), made once per base URL
 * and kept outside the answer cache (the oldest dropped past 16).
 */
export function keptAnswers(make: (baseUrl: string) => Answer): (baseUrl: string) => Answer {
  const answers = new Map<string, Answer>();
  return (baseUrl) => {
    let answer = answers.get(baseUrl);
    if (answer === undefined) {
      answer = make(baseUrl);
      const oldest = answers.keys().next();
      if (answers.size >= MAX_KEPT_ANSWERS && !oldest.done) answers.delete(oldest.value);
      answers.set(baseUrl, answer);
    }
    return answer;
  };
}

/** The cached answer for this key at the current catalogue version, or a fresh one. */
export async function cachedAnswer(deps: AnswerDeps, key: string, render: () => Promise<{ version: number; body: unknown }>): Promise<Answer> {
  return cachedBytes(deps, key, async () => {
    const { version, body } = await render();
    return { version, bytes: Buffer.from(stringifyAnswer(body)), contentType: CONTENT_TYPE_JSON };
  });
}

/**
 * The version to store an answer that depends on no record under (a landing page, a style
 * sheet): the one the watch has seen; the store's only before the watch's first poll.
 */
export async function seenVersion(deps: AnswerDeps & { store: CatalogueReader }): Promise<number> {
  return deps.versions.current() ?? deps.store.catalogueVersion();
}

/** The same for answers that are not JSON; empty bytes are sent as 204 No Content. */
export async function cachedBytes(deps: AnswerDeps, key: string, render: () => Promise<{ version: number; bytes: Buffer; contentType: string; etag?: string }>): Promise<Answer> {
  const version = deps.versions.current();
  const cached = version === null ? undefined : deps.cache.get(version, key);
  if (cached) return cached;
  const rendered = await render();
  // Stored under the version its rows were read from, never the one polled.
  const answer = makeAnswer(rendered.version, rendered.bytes, rendered.contentType, rendered.etag);
  deps.cache.set(key, answer);
  return answer;
}

export function sendAnswer(request: FastifyRequest, reply: FastifyReply, deps: AnswerDeps, key: string, answer: Answer): FastifyReply {
  const { status, encoding, etag } = replyShape(answer, request.headers, deps.config, deps.encodings);
  reply.header('etag', etag).header('cache-control', deps.config.cacheControl);
  // The answer differs by Accept-Encoding (API paths get their full Vary from reply.ts).
  if (deps.config.compress) {
    const vary = reply.getHeader('vary');
    const tokens = vary === undefined ? [] : String(vary).split(',').map((t) => t.trim().toLowerCase());
    if (!tokens.includes('accept-encoding')) reply.header('vary', vary === undefined ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`);
  }
  if (answer.body.length > 0) reply.header('content-type', answer.contentType);
  if (status !== 200) {
    deps.replays?.note(request, answer, status, encoding, null);
    return reply.code(status).send();
  }
  if (encoding === null) {
    deps.replays?.note(request, answer, status, encoding, answer.body);
    return reply.code(200).send(answer.body);
  }
  const hadIt = answer.encoded[encoding] !== undefined;
  const body = encodedBody(answer, encoding);
  if (!hadIt) deps.cache.grew(key, answer);
  deps.replays?.note(request, answer, status, encoding, body);
  return reply.code(200).header('content-encoding', encoding).send(body);
}

/**
 * Which answer a request gets: the encoding Accept-Encoding chooses and that encoding's ETag;
 * 304 when If-None-Match names that ETag, 204 when there is no body, else 200.
 */
export function replyShape(
  answer: Answer, headers: IncomingHttpHeaders, config: Pick<Config, 'compress'>, encodings: EncodingChoices,
): { status: 200 | 204 | 304; encoding: Encoding | null; etag: string } {
  const encoding = config.compress && answer.body.length > 0 ? encodings.choose(headers['accept-encoding']) : null;
  const etag = encodedEtag(answer.etag, encoding);
  if (matchesEtag(headers['if-none-match'], etag)) return { status: 304, encoding, etag };
  return { status: answer.body.length === 0 ? 204 : 200, encoding, etag };
}

/**
 * Each encoding is its own representation with its own strong ETag (RFC 9110 §8.8.3): the
 * identity body's, with `-gz` or `-br` inside the quotes.
 */
export function encodedEtag(etag: string, encoding: Encoding | null): string {
  return encoding === null ? etag : `${etag.slice(0, -1)}-${encoding === 'gzip' ? 'gz' : 'br'}"`;
}

/** If-None-Match uses the weak comparison: W/"x" matches "x"; * matches anything. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** At equal q: brotli (smallest), then gzip, then none. */
const PREFERENCE = ['br', 'gzip', 'identity'] as const;
const CHOSEN_MAX = 256;
const CHOSEN_HEADER_MAX = 200;

/**
 * What the values of a request header chose, remembered by each app: clients send few
 * distinct ones (bounded in count, and long values are not kept).
 */
export class HeaderChoices<T> {
  private readonly chosen = new Map<string, T>();

  constructor(private readonly decide: (header: string) => T, private readonly absent: T) {}

  choose(header: string | undefined): T {
    if (header === undefined) return this.absent;
    let choice = this.chosen.get(header);
    if (choice === undefined) {
      choice = this.decide(header);
      if (this.chosen.size >= CHOSEN_MAX) this.chosen.clear();
      if (header.length <= CHOSEN_HEADER_MAX) this.chosen.set(header, choice);
    }
    return choice;
  }
}

/** Accept-Encoding's values read: the encoding each chose. */
export class EncodingChoices extends HeaderChoices<Encoding | null> {
  constructor() {
    super(chooseEncoding, null);
  }
}

/**
 * The encoding of the answer, by negotiator's reading of Accept-Encoding (RFC 9110 §12.5.3):
 * the highest q wins, `q=0` refuses, `*` stands for what is not named, identity is
 * acceptable unless refused. No header: no encoding. When nothing is acceptable, not even
 * identity, the identity body is sent anyway (as with compression off) rather than a 406.
 */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (header === undefined) return null;
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } });
  // negotiator 1.x takes the preference order; its @types do not know the argument yet.
  const chosen: unknown = Reflect.apply(negotiator.encodings, negotiator, [PREFERENCE, { preferred: PREFERENCE }]);
  const best: unknown = Array.isArray(chosen) ? chosen[0] : undefined;
  return best === 'br' || best === 'gzip' ? best : null;
}
