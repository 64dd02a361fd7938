// When to try a request again and how long to wait first: pure rules, so they can be
// tested by table and the client stays a loop.

/** The longest wait between two attempts, whatever the attempt number. */
export const MAX_BACKOFF_MS = 60_000;
/** A server asking for a longer pause than this is treated as closed for now. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** 5xx and 429 are worth another try; any other 4xx will answer the same again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Why an address that has never answered will not answer a retry either (nothing listens
 * there, no such host), from the network error's code; null when a retry may help. Once an
 * address has answered, the same refusal is a server restarting, and is retried.
 */
export function unreachable(code: string | undefined): string | null {
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'no such host';
  return null;
}

/** Only 429 and 503 carry a Retry-After we honour (RFC 9110 §10.2.3). */
export function honoursRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * Exponential backoff with "equal jitter": half the ceiling fixed, half random, so
 * several harvesters that failed together do not retry together.
 */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
