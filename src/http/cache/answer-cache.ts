// Every answer is a pure function of the URL, the base URL and the catalogue version, so a
// rendered body is kept and served again until the catalogue changes. Bounded in bytes
// (least recently used goes first); compressed forms are made once, when first asked for.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { CONTENT_TYPE_JSON } from '../../constants.js';

export type Encoding = 'br' | 'gzip';

export interface Answer {
  version: number;
  body: Buffer;
  /** Strong: the catalogue version and a hash of the body. */
  etag: string;
  encoded: Partial<Record<Encoding, Buffer>>;
  /** JSON for the API; vector tiles carry their own. */
  contentType: string;
  /** How it was sent, per request shape, for the fast path (fast-answers.ts). */
  replays: Map<number, Replay>;
}

/** One answer as Fastify sent it: replayed by the fast path to the same kind of request. */
export interface Replay {
  status: number;
  /** Flat header list (name, value, …) as sent; the first value is the request id's slot. */
  head: string[];
  /** null for HEAD, 304 and 204. */
  body: Buffer | null;
  /** Body bytes as logged and counted by the metrics. */
  bytes: number;
  /** Counts it in the metrics (null when they are off). */
  observe: ((seconds: number, bytes: number) => void) | null;
  /** Writes the request log line (null when the level leaves it out). */
  logLine: ((id: string, elapsedMs: number, client: string) => void) | null;
}

/** `etag`: a validator the bytes already have (a stored picture's digest, the same on every version); else one made of version and bytes. */
export function makeAnswer(version: number, pooledBody: Buffer, contentType = CONTENT_TYPE_JSON, etag?: string): Answer {
  const body = ownMemory(pooledBody);
  return { version, body, etag: etag ?? `"${version}-${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`, encoded: {}, contentType, replays: new Map() };
}

/**
 * A small Buffer (under 4 KiB) is a slice of a shared 8 KiB pool slab, and a cached slice
 * keeps its whole slab alive: in isolation, 64 MB of cached 0.2–2 KB answers held 121 MB
 * of buffers, 64 MB once copied. A copy of its own keeps the byte bound true to memory.
 */
function ownMemory(body: Buffer): Buffer {
  if (body.byteLength === body.buffer.byteLength) return body;
  const own = Buffer.allocUnsafeSlow(body.length);
  body.copy(own);
  return own;
}

export function encodedBody(answer: Answer, encoding: Encoding): Buffer {
  let body = answer.encoded[encoding];
  if (!body) {
    body = encoding === 'br'
      ? zlib.brotliCompressSync(answer.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
      : zlib.gzipSync(answer.body, { level: 6 });
    answer.encoded[encoding] = body;
  }
  return body;
}

const sizeOf = (answer: Answer, key: string) =>
  answer.body.length + (answer.encoded.br?.length ?? 0) + (answer.encoded.gzip?.length ?? 0) + key.length * 2 + 200;

interface Entry {
  answer: Answer;
  bytes: number;
}

/** What peek() found, for touch(). */
export interface Peeked {
  id: string;
  entry: Entry;
  answer: Answer;
}

/** An answer's id in the cache: its key under a catalogue version. */
export function answerId(version: number, key: string): string {
  return `${version}\n${key}`;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private newestVersion = -1;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get(version: number, key: string): Answer | undefined {
    const found = this.peek(version, key);
    if (found === undefined) {
      this.misses++;
      return undefined;
    }
    this.touch(found);
    return found.answer;
  }

  /** The answer if cached, counting nothing and moving nothing (the fast path looks first). */
  peek(version: number, key: string): Peeked | undefined {
    return this.peekId(answerId(version, key));
  }

  /** peek() by an id made with answerId(), which a caller may keep (the fast path does, per URL). */
  peekId(id: string): Peeked | undefined {
    const entry = this.entries.get(id);
    return entry === undefined ? undefined : { id, entry, answer: entry.answer };
  }

  /** A hit on what peek() found just before (synchronously): counted and made most recently used (last), as get() does. */
  touch(found: Peeked): void {
    this.hits++;
    this.entries.delete(found.id);
    this.entries.set(found.id, found.entry);
  }

  set(key: string, answer: Answer): void {
    if (this.maxBytes === 0) return;
    // A newer catalogue makes every older answer useless: free them at once.
    if (answer.version > this.newestVersion) {
      this.newestVersion = answer.version;
      for (const [id, entry] of this.entries) if (entry.answer.version < answer.version) this.remove(id, entry.bytes);
    }
    const id = answerId(answer.version, key);
    const old = this.entries.get(id);
    if (old) this.remove(id, old.bytes);
    const bytes = sizeOf(answer, key);
    if (bytes > this.maxBytes) return;
    this.entries.set(id, { answer, bytes });
    this.bytes += bytes;
    this.evict();
  }

  /** Compressed forms grow an entry after it was stored. */
  grew(key: string, answer: Answer): void {
    const id = answerId(answer.version, key);
    const entry = this.entries.get(id);
    if (!entry) return;
    const bytes = sizeOf(answer, key);
    this.bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.evict();
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private evict(): void {
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(id, entry.bytes);
    }
  }

  private remove(id: string, bytes: number): void {
    this.entries.delete(id);
    this.bytes -= bytes;
  }
}
