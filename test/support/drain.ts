// Tools for the shutdown tests: `serve` as a child process with its own environment, a
// catalogue with one very large record (an answer far larger than the kernel's socket
// buffers, so a client that stops reading really holds the server), clients that stop
// reading, a keep-alive load, and a probe for a closed listener.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Catalogue } from '../../src/catalogue/format.js';
import { after, before } from 'node:test';
import { buildTestCatalogue } from './catalogue.js';
import { CLI_ENTRY, ensureCliBuilt } from './cli-entry.js';
import { importInto } from './server.js';
import { createTestDatabase, type TestDatabase } from './stores.js';

const WORKER_LINE = /serving .* at (http:\/\/\S+?)\/api\/v1\//;

/** Id of the feature whose answer is about 12 MB. */
export const BIG_FEATURE_ID = 999;
export const BIG_URL = `/api/v1/features/${BIG_FEATURE_ID}/`;

export function catalogueWithBigFeature(positions = 300_000): Catalogue {
  const catalogue = buildTestCatalogue();
  const ring: [number, number][] = [];
  for (let i = 0; i < positions; i++) {
    const angle = (2 * Math.PI * i) / positions;
    ring.push([-0.0703927410721712 + 0.001 * Math.cos(angle), 51.5168396123456789 + 0.001 * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  const template = catalogue.features[5]!;
  catalogue.features.push({ ...template, id: BIG_FEATURE_ID, geometry: { type: 'MultiPolygon', coordinates: [[ring]] } });
  return catalogue;
}

/** What the load of the shutdown tests asks for: small answers of every kind. */
export const LOAD_URLS = [
  '/api/v1/',
  '/api/v1/features/',
  '/api/v1/features/?page=2',
  '/api/v1/features/1/',
  '/api/v1/images/',
  '/api/v1/images/7/',
  '/api/v1/documents/',
  '/api/v1/media/',
  '/api/v1/features/?page_size=5&page=3',
];

/** A SQLite database of the catalogue with the big feature, made before the file's tests and dropped after: its `serve` arguments. */
export function useBigFeatureDatabase(): { readonly args: string[] } {
  let database: TestDatabase | undefined;
  before(async () => {
    database = createTestDatabase('sqlite');
    await importInto(database.settings, catalogueWithBigFeature());
  });
  after(() => database?.drop());
  return {
    get args() {
      if (!database) throw new Error('the database is made in before()');
      return database.args;
    },
  };
}

export interface ServeProcess {
  child: ChildProcess;
  origin: string;
  stderr(): string;
  stdout(): string;
  exited: Promise<number | null>;
}

/**
 * `serve` on a free port with extra environment (SHUTDOWN_TIMEOUT_MS, ...); `group` makes
 * it lead its own process group, so that a signal can go to it all, as a terminal's Ctrl-C.
 * SHUTDOWN_DELAY_MS is 0 unless given: the tests of the delay set it.
 */
export function spawnServe(args: string[], env: Record<string, string> = {}, group = false): Promise<ServeProcess> {
  ensureCliBuilt();
  const child = spawn(process.execPath, [CLI_ENTRY, 'serve', '--port', '0', '--log-level', 'warn', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SHUTDOWN_DELAY_MS: '0', ...env },
    detached: group,
  });
  let stderr = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = WORKER_LINE.exec(stderr);
      if (match) resolve({ child, origin: match[1]!, stderr: () => stderr, stdout: () => stdout, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

export async function waitFor(what: string, condition: () => boolean, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(condition(), `waited in vain for ${what}`);
}

export async function waitForAsync(what: string, condition: () => Promise<boolean>, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`waited in vain for ${what}`);
}

/** A GET whose answer the client stops reading as soon as the headers arrive. */
export interface PausedRequest {
  status: number;
  contentLength: number;
  /** Reads the rest of the answer; resolves with what arrived and whether it was whole. */
  finish(): Promise<{ bytes: Buffer; complete: boolean }>;
}

export function pausedRequest(origin: string, pathAndQuery: string): Promise<PausedRequest> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: hostname, port, path: pathAndQuery, agent: false }, (res) => {
      res.pause();
      const chunks: Buffer[] = [];
      const finished = new Promise<{ bytes: Buffer; complete: boolean }>((done) => {
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ bytes: Buffer.concat(chunks), complete: res.complete }));
        res.on('error', () => done({ bytes: Buffer.concat(chunks), complete: false }));
        res.on('aborted', () => done({ bytes: Buffer.concat(chunks), complete: false }));
      });
      resolve({
        status: res.statusCode ?? 0,
        contentLength: Number(res.headers['content-length']),
        finish: () => {
          res.resume();
          return finished;
        },
      });
    });
    req.on('error', reject);
  });
}

export type Outcome =
  | { kind: 'answer'; status: number; complete: boolean; connectionClose: boolean; afterSignal: boolean }
  | { kind: 'error'; code: string; reused: boolean; afterSignal: boolean };

/**
 * `clients` keep-alive clients, each asking the URLs in turn on one connection, as a load
 * balancer's pool does, until a connection is refused or `stop()` is called.
 */
export function keepAliveLoad(origin: string, urls: string[], clients: number, signalled: () => boolean) {
  const { hostname, port } = new URL(origin);
  const outcomes: Outcome[] = [];
  let stopped = false;
  const one = (agent: http.Agent, url: string) =>
    new Promise<Outcome>((resolve) => {
      const req = http.get({ host: hostname, port, path: url, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const length = Buffer.concat(chunks).length;
          const complete = res.complete && length === Number(res.headers['content-length']) && isJson(Buffer.concat(chunks));
          resolve({ kind: 'answer', status: res.statusCode ?? 0, complete, connectionClose: res.headers.connection === 'close', afterSignal: signalled() });
        });
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ kind: 'error', code: `mid-answer ${e.code ?? e.message}`, reused: req.reusedSocket, afterSignal: signalled() }));
      });
      req.setTimeout(30_000, () => req.destroy(new Error('timed out')));
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ kind: 'error', code: e.code ?? e.message, reused: req.reusedSocket, afterSignal: signalled() }));
    });
  const client = async (n: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = n; !stopped; i++) {
      const outcome = await one(agent, urls[i % urls.length]!);
      outcomes.push(outcome);
      if (outcome.kind === 'error') break;
    }
    agent.destroy();
  };
  const done = Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
  return { outcomes, done, stop: () => (stopped = true) };
}

/**
 * Bodies already found to be JSON, by length. The big feature's answer (megabytes) comes back
 * again and again under load: parsing each copy was some 10 s of CPU over the shutdown
 * suites, where comparing it with the copy parsed before costs a memcmp.
 */
const KNOWN_JSON = new Map<number, Buffer[]>();

function isJson(bytes: Buffer): boolean {
  const known = KNOWN_JSON.get(bytes.length) ?? [];
  if (known.some((body) => body.equals(bytes))) return true;
  try {
    JSON.parse(bytes.toString('utf8'));
  } catch {
    return false;
  }
  KNOWN_JSON.set(bytes.length, [...known, bytes]);
  return true;
}

/** Whether a new TCP connection to the origin is refused. */
export function connectionRefused(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

export async function waitUntilRefused(origin: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await connectionRefused(origin)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${origin} still accepts connections`);
}

export type BurstOutcome = { status: number; complete: boolean } | { error: string };

/**
 * `count` requests at once, each on a connection of its own (as many clients arriving
 * together). `connected` resolves once the kernel has established every connection, which
 * is before the server has necessarily accepted them; `outcomes` once each has ended.
 */
export function burst(origin: string, urls: string[], count: number) {
  const { hostname, port } = new URL(origin);
  const connections: Promise<void>[] = [];
  const outcomes = Array.from({ length: count }, (_, i) =>
    new Promise<BurstOutcome>((resolve) => {
      const req = http.get({ host: hostname, port, path: urls[i % urls.length], agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, complete: res.complete && body.length === Number(res.headers['content-length']) && isJson(body) });
        });
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: `mid-answer ${e.code ?? e.message}` }));
      });
      connections.push(new Promise((connected) => {
        req.once('socket', (socket) => socket.once('connect', () => connected()));
        req.once('error', () => connected());
      }));
      req.setTimeout(30_000, () => req.destroy(new Error('timed out')));
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    }),
  );
  return { connected: Promise.all(connections).then(() => undefined), outcomes: Promise.all(outcomes) };
}

/**
 * Rounds of: `serve` starts, a burst of requests (a few large answers first, so the server
 * is busy while the rest wait in the kernel's accept queue), SIGTERM as soon as the kernel
 * has established every connection. Returns every request's outcome and the exit codes.
 */
export async function sigtermDuringBursts(args: string[], env: Record<string, string>, rounds: number, urls: string[], workers = 1) {
  const outcomes: BurstOutcome[] = [];
  const exits: (number | null)[] = [];
  for (let round = 0; round < rounds; round++) {
    const serve = await spawnServe(workers > 1 ? [...args, '--workers', String(workers)] : args, { SHUTDOWN_TIMEOUT_MS: '60000', ...env });
    try {
      await waitFor(`${workers} worker(s)`, () => serve.stderr().match(/ serving /g)!.length === workers);
      const big = burst(serve.origin, [BIG_URL], 3);
      const small = burst(serve.origin, urls, 40);
      await Promise.all([big.connected, small.connected]);
      serve.child.kill('SIGTERM');
      outcomes.push(...(await big.outcomes), ...(await small.outcomes));
      exits.push(await serve.exited);
    } finally {
      serve.child.kill('SIGKILL');
    }
  }
  return { outcomes, exits };
}
