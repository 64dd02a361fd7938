// A misbehaving front for a real test server, made with plain node:http: it forwards
// every request (Host kept, so the answers' links point at it) and, as told, answers 5xx
// or 429 instead, drops the connection, edits a page (its `count`, a title), rewrites
// page_size (a server ignoring it), or holds requests until released. It logs every request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultAction =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { drop: true }
  /** Changes the JSON body before it goes out (a count, a title…). */
  | { edit: (body: any) => void };

export interface Fault {
  /** Requests whose path and query match… */
  path: RegExp;
  /** …get the fault this many times (default once), counted from the first match. */
  times?: number;
  action: FaultAction;
}

export interface SeenRequest {
  method: string;
  url: string;
  userAgent: string | undefined;
  /** What the front did: `forwarded`, a status, `drop` or `edit`. */
  outcome: string;
}

export interface FlakyOptions {
  faults?: Fault[];
  /** Replace page_size with this value; null removes it (a server that ignores it). */
  pageSize?: string | null;
  /** Requests from this one on (1-based) wait unanswered until release(). */
  holdFrom?: number;
}

export interface FlakyServer {
  origin: string;
  seen: SeenRequest[];
  maxInFlight: number;
  release(): void;
  /** Resolves once `n` requests have arrived. */
  waitForRequests(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFlakyServer(upstream: string, options: FlakyOptions = {}): Promise<FlakyServer> {
  const faults = (options.faults ?? []).map((f) => ({ ...f, left: f.times ?? 1 }));
  const seen: SeenRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let releaseHeld = () => {};
  const held = new Promise<void>((resolve) => (releaseHeld = resolve));
  let released = false;
  let inFlight = 0;
  const front = {
    maxInFlight: 0,
    release() {
      released = true;
      releaseHeld();
    },
  };

  const server = http.createServer(async (req, res) => {
    const url = rewritePageSize(req.url ?? '/', options.pageSize);
    const entry: SeenRequest = { method: req.method ?? 'GET', url, userAgent: req.headers['user-agent'], outcome: 'forwarded' };
    const number = seen.push(entry);
    for (const w of waiters.filter((w) => seen.length >= w.n)) w.resolve();
    inFlight++;
    front.maxInFlight = Math.max(front.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    if (!released && number >= (options.holdFrom ?? Infinity)) await held;
    const fault = faults.find((f) => f.left > 0 && f.path.test(url));
    if (fault !== undefined) fault.left--;
    await answer(upstream, req, res, url, fault?.action, entry);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(front, {
    origin: `http://127.0.0.1:${port}`,
    seen,
    waitForRequests: (n: number) => new Promise<void>((resolve) => (seen.length >= n ? resolve() : waiters.push({ n, resolve }))),
    close: () => {
      front.release();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

function rewritePageSize(url: string, pageSize: string | null | undefined): string {
  if (pageSize === undefined) return url;
  const parsed = new URL(url, 'http://front');
  if (!parsed.searchParams.has('page_size')) return url;
  if (pageSize === null) parsed.searchParams.delete('page_size');
  else parsed.searchParams.set('page_size', pageSize);
  return parsed.pathname + parsed.search;
}

async function answer(upstream: string, req: http.IncomingMessage, res: http.ServerResponse, url: string, action: FaultAction | undefined, entry: SeenRequest): Promise<void> {
  if (action !== undefined && 'drop' in action) {
    entry.outcome = 'drop';
    req.socket.destroy();
    return;
  }
  if (action !== undefined && 'status' in action) {
    entry.outcome = String(action.status);
    res.writeHead(action.status, { 'content-type': 'application/json', ...action.headers }).end(action.body ?? '{"detail": "Try later."}');
    return;
  }
  let upstreamAnswer: Awaited<ReturnType<typeof forward>>;
  try {
    upstreamAnswer = await forward(upstream, req, url);
  } catch {
    if (!res.destroyed) res.writeHead(502).end();
    return;
  }
  if (req.method === 'HEAD') {
    if (!res.destroyed) res.writeHead(upstreamAnswer.status, upstreamAnswer.headers).end();
    return;
  }
  let body = upstreamAnswer.body;
  if (action !== undefined && 'edit' in action) {
    entry.outcome = 'edit';
    const parsed = JSON.parse(body.toString('utf8'));
    action.edit(parsed);
    body = Buffer.from(JSON.stringify(parsed));
  }
  const headers = { ...upstreamAnswer.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  if (!res.destroyed) res.writeHead(upstreamAnswer.status, headers).end(body);
}

function forward(upstream: string, req: http.IncomingMessage, url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(upstream);
  return new Promise((resolve, reject) => {
    // Identity: the faults edit JSON bodies, which the server would otherwise compress for a client that accepts it.
    const out = http.request({ host: hostname, port, path: url, method: req.method, headers: { ...req.headers, 'accept-encoding': 'identity', connection: 'close' }, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
      answer.on('error', reject);
    });
    out.on('error', reject);
    out.end();
  });
}
