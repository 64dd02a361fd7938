// The isolation test's attackers (isolation.ts), run in a worker thread of their own so that
// reading their answers never delays the victim's event loop, which measures latency. Each
// class of issue 33's attack sends its costliest accepted request from many clients at once,
// until the window ends; every request's outcome is tallied by class and posted back.
import http from 'node:http';
import net from 'node:net';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { IIIF_PATHS } from '../../src/pages/paths.js';
import { lowerThisThread } from '../../src/work/thread-priority.js';

// The attackers' own work (reading and parsing their answers) runs at the lowest priority: on
// two cores, the load generator must not take the victim's thread's core in this process,
// or the test would measure the harness rather than the server. Only in the attackers'
// thread: isolation.ts reads this module's constants too, and a main thread lowered would
// lower the victim, and the server it spawns (a process starts at its parent thread's nice).
if (!isMainThread) lowerThisThread();

export interface AttackPlan {
  origin: string;
  windowMs: number;
  /** A request without its status line this long after it was sent is a hang. */
  hangMs: number;
  /** The S_INTERSECTS polygon's ring, closed, as CQL2 positions. */
  ring: [number, number][];
  /** The image record whose picture (the largest) the IIIF renders are of. */
  iiifImage: number;
  /**
   * A render's hang bound: the server's own is longer than other requests' (a turn waited
   * for, then the render's deadline), for renders get only what the server leaves of the CPU.
   */
  renderHangMs: number;
}

/** Per class, how many requests ended how: a status (`200`, `503`, `200 cut` …), `hang`, `error CODE`. */
export type Tally = Record<string, Record<string, number>>;

/** A slow reader's pace. */
const SLOW_BYTES_PER_SECOND = 4096;
const ITEMS = '/ogc/collections/features/items';

interface Window {
  over: boolean;
  ended: Promise<void>;
}

function count(tally: Tally, kind: string, outcome: string): void {
  const byOutcome = (tally[kind] ??= {});
  byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ClientOptions {
  /** Read each answer slowly. */
  slow?: boolean;
  /** This class's hang bound, if not the plan's. */
  hangMs?: number;
  /** Told each request's outcome. */
  answered?: (target: string, outcome: string) => void;
}

/**
 * One request: its outcome once it ends. Read fast or slow; an answer still being read when
 * the window ends is cut (`200 cut`); one whose status has not come `hangMs` after it was
 * sent is a `hang`, and is given up.
 */
function shoot(plan: AttackPlan, window: Window, agent: http.Agent, target: string, headers: Record<string, string>, { slow = false, hangMs = plan.hangMs }: ClientOptions): Promise<{ outcome: string; retryAfterMs: number }> {
  const { hostname, port } = new URL(plan.origin);
  return new Promise((resolve) => {
    let settled = false;
    let status: number | null = null;
    const settle = (outcome: string, retryAfterMs = 0) => {
      if (settled) return;
      settled = true;
      clearTimeout(hang);
      resolve({ outcome, retryAfterMs });
    };
    const req = http.get({ host: hostname, port, path: target, headers, agent }, (res) => {
      status = res.statusCode ?? 0;
      clearTimeout(hang);
      const retryAfter = Number(res.headers['retry-after'] ?? 1);
      res.on('end', () => settle(res.complete ? String(status) : `${status} incomplete`, status! >= 400 ? retryAfter * 1000 : 0));
      res.on('error', () => settle(`${status} incomplete`));
      if (slow && status === 200) readSlowly(res);
      else res.resume();
      void window.ended.then(() => {
        if (settled) return;
        settle(`${status} cut`);
        req.destroy();
      });
    });
    const hang = setTimeout(() => {
      settle('hang');
      req.destroy();
    }, hangMs);
    req.on('error', (error: NodeJS.ErrnoException) => settle(status === null ? `error ${error.code ?? error.message}` : `${status} incomplete`));
  });
}

/** Reads a few kilobytes a second: each chunk waits its share of time before the next is taken. */
function readSlowly(res: http.IncomingMessage): void {
  res.on('data', (chunk: Buffer) => {
    res.pause();
    setTimeout(() => res.resume(), (chunk.length / SLOW_BYTES_PER_SECOND) * 1000).unref();
  });
}

/**
 * A client: its own keep-alive connection, one request after another until the window ends.
 * After a refusal it waits the Retry-After the server asked for: the test is of costly
 * requests, not of a flood of cheap ones (a flood from one address is the rate limit's).
 */
async function client(plan: AttackPlan, window: Window, tally: Tally, kind: string, next: () => { target: string; headers?: Record<string, string> }, options: ClientOptions = {}): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    while (!window.over) {
      const { target, headers = {} } = next();
      const { outcome, retryAfterMs } = await shoot(plan, window, agent, target, headers, options);
      count(tally, kind, outcome);
      options.answered?.(target, outcome);
      if (retryAfterMs > 0 && !window.over) await Promise.race([pause(retryAfterMs), window.ended]);
    }
  } finally {
    agent.destroy();
  }
}

/**
 * A client that sends the request and never reads: its socket paused from the start, so the
 * answer fills the kernel's buffers and waits in the server. When the window ends it reads
 * the status line that came, and closes.
 */
function neverReader(plan: AttackPlan, window: Window, tally: Tally, target: string): Promise<void> {
  const { hostname, port } = new URL(plan.origin);
  return new Promise((resolve) => {
    const sentAt = Date.now();
    let ended = false;
    const done = (outcome: string) => {
      if (ended) return;
      ended = true;
      clearTimeout(hang);
      count(tally, 'never read', outcome);
      socket.destroy();
      resolve();
    };
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
      socket.pause();
    });
    let hang: NodeJS.Timeout | undefined;
    socket.on('error', (error: NodeJS.ErrnoException) => done(`error ${error.code ?? error.message}`));
    void window.ended.then(() => {
      hang = setTimeout(() => done('hang'), Math.max(0, sentAt + plan.hangMs - Date.now()));
      let head = '';
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('latin1');
        const line = /^HTTP\/1\.1 (\d{3})/.exec(head);
        if (line) done(line[1]!);
        else if (head.length > 20) done('not HTTP');
      });
      socket.on('end', () => done('closed without an answer'));
      socket.resume();
    });
  });
}

/** The kind of the IIIF class in the tally. */
export const IIIF_KIND = 'IIIF full/max';
/** Rotations by 90s, mirrored (`!`) or not; qualities; formats. */
const ROTATIONS = ['0', '90', '180', '270', '!0', '!90', '!180', '!270'];
const QUALITIES = ['default', 'color', 'gray'];
const FORMATS = ['jpg', 'png', 'webp'];
/**
 * Distinct full-size renders the IIIF class can ask for (`^max` is not one more: past
 * maxArea it is the same size as `max`, and the server keeps it as the same render).
 */
export const IIIF_RENDERS = ROTATIONS.length * QUALITIES.length * FORMATS.length;

/**
 * The picture's full-size renders, every format and quality among the first nine. The server
 * keeps renders by request (IIIF_CACHE_MB), so a render answered (a 200, whole or cut by the
 * window's end: sent once made) is never asked for again and each is made afresh; one
 * refused goes back to the end of the line. Only once all of them are answered does the line
 * start over (the test counts the 200s).
 */
function fullRenders(image: number): { next(): { target: string }; answered(target: string, outcome: string): void } {
  const all = Array.from({ length: IIIF_RENDERS }, (_, n) => {
    const [format, quality, rotation] = [FORMATS[n % 3]!, QUALITIES[Math.floor(n / 3) % 3]!, ROTATIONS[Math.floor(n / 9)]!];
    return `${IIIF_PATHS.imageService(image)}/full/max/${rotation}/${quality}.${format}`;
  });
  const line = [...all];
  return {
    next: () => {
      if (line.length === 0) line.push(...all);
      return { target: line.shift()! };
    },
    answered: (target, outcome) => {
      if (!outcome.startsWith('200')) line.push(target);
    },
  };
}

/** `n` clients of one kind. */
function many(n: number, start: (i: number) => Promise<void>): Promise<void>[] {
  return Array.from({ length: n }, (_, i) => start(i));
}

/** Every class of issue 33's attack at once, until `plan.windowMs` has passed; the tally once every request has ended. */
export async function attack(plan: AttackPlan): Promise<Tally> {
  const tally: Tally = {};
  let endWindow!: () => void;
  const window: Window = { over: false, ended: new Promise((resolve) => (endWindow = resolve)) };
  setTimeout(() => {
    window.over = true;
    endWindow();
  }, plan.windowMs);

  const ring = plan.ring.slice(0, -1);
  let shots = 0;
  /** The polygon's ring from another vertex each time, and limit 1–10: a new URL for the answer cache, the same work. */
  const polygon = () => {
    const n = shots++;
    const turned = [...ring.slice(n % ring.length), ...ring.slice(0, n % ring.length)];
    const text = [...turned, turned[0]!].map(([x, y]) => `${x.toFixed(4)}%20${y.toFixed(4)}`).join(',');
    return { target: `${ITEMS}?limit=${1 + (n % 10)}&filter=S_INTERSECTS(geometry,POLYGON((${text})))` };
  };
  let bigLimit = 10_000;
  let searches = 0;
  const formats = ['csv', 'geojson', 'fgb'];
  const renders = fullRenders(plan.iiifImage);
  const clients = [
    ...many(6, () => client(plan, window, tally, 'polygon', polygon)),
    ...many(8, () => client(plan, window, tally, 'limit=10000', () => ({ target: `${ITEMS}?limit=${bigLimit--}` }))),
    ...many(20, (i) => neverReader(plan, window, tally, `${ITEMS}?limit=${9_500 - i}`)),
    ...many(40, () => client(plan, window, tally, 'f=csv', () => ({ target: `${ITEMS}?f=csv` }))),
    ...many(150, (i) => client(plan, window, tally, 'slow download', () => ({ target: `${ITEMS}?f=${formats[i % formats.length]}` }), { slow: true })),
    ...many(30, (i) => client(plan, window, tally, 'f=gpkg Host ports', () => ({ target: `${ITEMS}?f=gpkg`, headers: { host: `localhost:${i + 1}` } }))),
    ...many(10, () => client(plan, window, tally, 'f=gpkg&filter=TRUE', () => ({ target: `${ITEMS}?f=gpkg&filter=TRUE` }))),
    // The site's search, a text search of every feature (each page a new cached answer), from a browser.
    ...many(20, () => client(plan, window, tally, 'site search', () => ({ target: `/search/?q=old&page=${1 + (searches++ % 60)}`, headers: { accept: 'text/html' } }))),
    // Issue 49: full-size renders of the largest picture, each made afresh (decoded once, then cut, scaled, turned and encoded whole).
    ...many(20, () => client(plan, window, tally, IIIF_KIND, renders.next, { hangMs: plan.renderHangMs, answered: renders.answered })),
  ];
  await Promise.all(clients);
  return tally;
}

if (parentPort !== null && (workerData as { isolationAttack?: AttackPlan } | null)?.isolationAttack) {
  const port = parentPort;
  port.postMessage('started');
  void attack((workerData as { isolationAttack: AttackPlan }).isolationAttack).then((tally) => port.postMessage(tally));
}
