// Every HTTP request of a harvest goes through here: a clear User-Agent, bounded
// concurrency (pool.ts), retries with backoff on network errors and 5xx, Retry-After
// honoured on 429 and 503, and a clear stop on any other 4xx — or at once when an address
// that never answered refuses the connection or has no such host.
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HarvestError } from './errors.js';
import { RequestPool, type Sleep } from './pool.js';
import { MAX_RETRY_AFTER_MS, backoffMs, honoursRetryAfter, isRetryableStatus, parseRetryAfter, unreachable } from './retry.js';
import { errorCause, errorCode, messageOf } from '../caught.js';

export interface ClientOptions {
  concurrency: number;
  delayMs: number;
  /** First backoff step; doubles with each attempt (tests make it tiny). */
  backoffMs: number;
  maxAttempts: number;
  timeoutMs: number;
  userAgent: string;
  sleep: Sleep;
  /** One line for the person running the harvest (a retry, a pause). */
  notify: (message: string) => void;
  /** Aborts everything still queued or in flight (a fatal error elsewhere). */
  signal: AbortSignal;
}

/** A final answer that is not a success, kept apart so callers can read the status. */
export class HttpStatusError extends HarvestError {
  constructor(
    readonly url: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Target {
  method: string;
  url: string;
  headers: Record<string, string>;
}

type Outcome<T> = { value: T } | { retry: string; retryAfterMs: number | null };

export class HarvestClient {
  readonly stats = { requests: 0, retries: 0 };
  private readonly pool: RequestPool;
  /** Origins that have answered at least once: only their network errors are worth retrying. */
  private readonly answered = new Set<string>();

  constructor(private readonly options: ClientOptions) {
    this.pool = new RequestPool(options.concurrency, options.delayMs, options.sleep);
  }

  getJson(url: string, signal?: AbortSignal): Promise<unknown> {
    return this.request('GET', url, signal, async (response) => parseJson(url, response, await response.text()), 'application/json');
  }

  /** The size a HEAD answer announces; null when it does not say. */
  remoteSize(url: string, signal?: AbortSignal): Promise<number | null> {
    return this.request('HEAD', url, signal, async (response) => contentLength(response), '*/*');
  }

  /** The file at `url` into `file`, through a temporary file renamed into place. */
  download(url: string, file: string, signal?: AbortSignal): Promise<number> {
    return this.request('GET', url, signal, (response) => saveBody(response, file), '*/*');
  }

  private request<T>(method: string, url: string, signal: AbortSignal | undefined, read: (r: Response) => Promise<T>, accept: string): Promise<T> {
    const combined = signal === undefined ? this.options.signal : AbortSignal.any([this.options.signal, signal]);
    const headers = { 'user-agent': this.options.userAgent, accept };
    return this.pool.run(() => this.attempts({ method, url, headers }, combined, read));
  }

  private async attempts<T>(target: Target, signal: AbortSignal, read: (r: Response) => Promise<T>): Promise<T> {
    const { method, url } = target;
    for (let attempt = 0; ; attempt++) {
      const pause = this.pool.remainingPause();
      if (pause > 0) await this.options.sleep(pause, signal);
      signal.throwIfAborted();
      const outcome = await this.once(target, signal, read);
      if ('value' in outcome) return outcome.value;
      if (attempt + 1 >= this.options.maxAttempts) {
        throw new HarvestError(`${method} ${url}: still failing after ${this.options.maxAttempts} attempts (last: ${outcome.retry}).`);
      }
      this.stats.retries++;
      await this.waitBeforeRetry(method, url, attempt, outcome, signal);
    }
  }

  private async waitBeforeRetry(method: string, url: string, attempt: number, outcome: { retry: string; retryAfterMs: number | null }, signal: AbortSignal): Promise<void> {
    if (outcome.retryAfterMs !== null) {
      this.options.notify(`${method} ${url}: ${outcome.retry}; the server asks to wait ${seconds(outcome.retryAfterMs)}.`);
      this.pool.pause(outcome.retryAfterMs);
      return;
    }
    const wait = backoffMs(attempt, this.options.backoffMs);
    this.options.notify(`${method} ${url}: ${outcome.retry}; trying again in ${seconds(wait)}.`);
    await this.options.sleep(wait, signal);
  }

  private async once<T>({ method, url, headers }: Target, signal: AbortSignal, read: (r: Response) => Promise<T>): Promise<Outcome<T>> {
    this.stats.requests++;
    let response: Response;
    try {
      response = await fetch(url, { method, headers, signal: withTimeout(signal, this.options.timeoutMs) });
    } catch (error) {
      signal.throwIfAborted();
      this.refuseUnreachable(url, error);
      return { retry: describeNetworkError(error), retryAfterMs: null };
    }
    this.answered.add(new URL(url).origin);
    if (response.ok) return this.readSuccess(response, signal, read);
    return this.refusal(method, url, response);
  }

  /** An origin that never answered and refuses, or does not resolve, ends the harvest now (not after minutes of backoff). */
  private refuseUnreachable(url: string, error: unknown): void {
    const origin = new URL(url).origin;
    const reason = this.answered.has(origin) ? null : unreachable(networkErrorCode(error));
    if (reason !== null) throw new HarvestError(`nothing answers at ${origin}: ${reason}.`);
  }

  private async readSuccess<T>(response: Response, signal: AbortSignal, read: (r: Response) => Promise<T>): Promise<Outcome<T>> {
    try {
      return { value: await read(response) };
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof HarvestError) throw error;
      return { retry: `broken answer (${describeNetworkError(error)})`, retryAfterMs: null };
    }
  }

  /** A retryable status becomes an outcome; any other is the end of the harvest. */
  private async refusal(method: string, url: string, response: Response): Promise<Outcome<never>> {
    const status = `${response.status} ${response.statusText}`.trim();
    const detail = await bodyDetail(response);
    if (!isRetryableStatus(response.status)) {
      throw new HttpStatusError(url, response.status, `${method} ${url} answered ${status}${detail}; stopping.`);
    }
    const retryAfterMs = honoursRetryAfter(response.status) ? parseRetryAfter(response.headers.get('retry-after')) : null;
    if (retryAfterMs !== null && retryAfterMs > MAX_RETRY_AFTER_MS) {
      throw new HarvestError(`${method} ${url} answered ${status} and asks to wait ${seconds(retryAfterMs)}; try again later.`);
    }
    return { retry: status, retryAfterMs };
  }
}

function withTimeout(signal: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
}

function networkErrorCode(error: unknown): string | undefined {
  return errorCode(errorCause(error));
}

/** fetch says only "fetch failed"; the reason (ECONNRESET, a timeout…) is in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no answer in time';
  return errorCode(error.cause) ?? messageOf(error.cause) ?? error.message;
}

/** A short quote of an error body, e.g. ` ({"detail":"Not found."})`. */
async function bodyDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  const short = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return short === '' ? '' : ` (${short})`;
}

/** A whole body that is not JSON will not become JSON on a retry (an HTML page, a wrong URL). */
function parseJson(url: string, response: Response, text: string): unknown {
  try {
    const body: unknown = JSON.parse(text);
    return body;
  } catch {
    throw new HarvestError(`${url} did not answer JSON (Content-Type: ${response.headers.get('content-type') ?? 'none'}); is it the API root of a server of this spec?`);
  }
}

function contentLength(response: Response): number | null {
  const value = response.headers.get('content-length');
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

/** A body shorter than its Content-Length is a dropped transfer: refused, so it is retried. */
async function saveBody(response: Response, file: string): Promise<number> {
  const expected = contentLength(response);
  const temporary = `${file}.${process.pid}.part`;
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    const body = response.body === null ? Readable.from([]) : Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
    await pipeline(body, counter, fs.createWriteStream(temporary));
    if (expected !== null && size !== expected) throw new Error(`got ${size} of ${expected} bytes`);
    fs.renameSync(temporary, file);
    return size;
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
