// Every request the page makes to the API: a plain sentence when it fails, a callback when
// it is slow, and a time limit so that a stuck server never leaves the page waiting forever.

const SLOW_MS = 2500;
const TIMEOUT_MS = 30_000;

export class ApiProblem extends Error {
  constructor(message: string, readonly status: number | null) {
    super(message);
  }
}

export interface GetOptions {
  signal?: AbortSignal;
  /** Called once when the answer takes longer than SLOW_MS. */
  onSlow?: () => void;
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export async function getJson<T>(url: string, options: GetOptions = {}): Promise<T> {
  const signals = [AbortSignal.timeout(TIMEOUT_MS), ...(options.signal ? [options.signal] : [])];
  const slow = setTimeout(() => options.onSlow?.(), SLOW_MS);
  try {
    const response = await fetch(url, { signal: AbortSignal.any(signals), headers: { accept: 'application/json' } });
    if (!response.ok) throw new ApiProblem(`the server answered ${response.status}${await detailOf(response)}`, response.status);
    return (await response.json()) as T;
  } catch (error) {
    if (error instanceof ApiProblem || isAbort(error)) throw error;
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new ApiProblem(`the server did not answer within ${TIMEOUT_MS / 1000} s`, null);
    }
    if (error instanceof SyntaxError) throw new ApiProblem('the server’s answer was not valid JSON', null);
    throw new ApiProblem('the server could not be reached', null);
  } finally {
    clearTimeout(slow);
  }
}

async function detailOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    return typeof body.detail === 'string' ? ` (${body.detail})` : '';
  } catch {
    return '';
  }
}

/** `${base}/api/v1/${path}` with the query given, empty values left out. */
export function apiUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  return withQuery(`${base}/api/v1/${path}`, query);
}

/** The URL with the query given, empty values left out. */
export function withQuery(url: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && String(value).trim() !== '') params.set(name, String(value).trim());
  }
  const search = params.toString();
  return `${url}${search ? `?${search}` : ''}`;
}
