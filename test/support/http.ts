// Plain HTTP requests with node:http, so that tests control every byte: the Host header,
// raw paths with `//` or `..`, methods, and bodies of HEAD answers.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { checkApiAnswer } from './openapi-check.js';

export interface Answer {
  bytes: Buffer;
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Given up after this long (10 s unless told). */
  timeoutMs?: number;
}

/** What a suite talks to: a listening server (server.ts) or the app in process (in-process.ts). */
export interface HttpTarget {
  /** The scheme and authority its links are built from, e.g. http://127.0.0.1:41234 */
  origin: string;
  request(pathAndQuery: string, options?: RequestOptions): Promise<Answer>;
}

/** A target for a server listening at `origin` (one started by the CLI, say). */
export function socketTarget(origin: string): HttpTarget {
  return { origin, request: (pathAndQuery, options) => request(origin, pathAndQuery, options) };
}

export function request(origin: string, pathAndQuery: string, options: RequestOptions = {}): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        path: pathAndQuery,
        method: options.method ?? 'GET',
        headers: options.body === undefined ? options.headers : { 'content-length': String(Buffer.byteLength(options.body)), ...options.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(checkedAnswer(pathAndQuery, options, res.statusCode ?? 0, res.headers, Buffer.concat(chunks)));
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`timed out: ${pathAndQuery}`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The answer as suites see it; throws when an /api/ answer breaks the OpenAPI document. */
export function checkedAnswer(pathAndQuery: string, options: RequestOptions, status: number, headers: http.IncomingHttpHeaders, bytes: Buffer): Answer {
  const text = bytes.toString('utf8');
  const answer = { status, headers, bytes, text, json: () => JSON.parse(text) };
  // Every /api/ answer must keep to the OpenAPI document (openapi-check.ts).
  const problem = checkApiAnswer({ method: options.method ?? 'GET', pathAndQuery, headers: options.headers ?? {} }, answer);
  if (problem !== null) throw new Error(problem);
  return answer;
}

/** A request written byte for byte on a socket (no Host header, HTTP/1.0, broken syntax). */
export function rawRequest(origin: string, text: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('timed out')));
  });
}

export interface RawAnswer {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

/** The answers in what a raw request got back, in order (an interim 100 Continue included). */
export function parseRawAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const length = Number(headers['content-length'] ?? 0);
    const status = Number(statusLine!.split(' ')[1]);
    const bodyStart = end + 4;
    const body = Buffer.from(rest.slice(bodyStart), 'utf8').subarray(0, status < 200 ? 0 : length).toString('utf8');
    answers.push({ status, headers, body });
    rest = rest.slice(bodyStart + body.length);
  }
  return answers;
}

/** A raw request's one final answer (see rawRequest). */
export async function rawAnswer(origin: string, text: string): Promise<RawAnswer> {
  const answers = parseRawAnswers(await rawRequest(origin, text));
  assert.ok(answers.length > 0, 'no answer');
  return answers[answers.length - 1]!;
}

/** A download begun and held after its first chunk (the server then waits on the socket). */
export interface HeldDownload {
  response: http.IncomingMessage;
  /** Reads the rest: the whole body. */
  finish(): Promise<Buffer>;
}

export async function heldDownload(url: string): Promise<HeldDownload> {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, resolve).on('error', reject));
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunks.length === 1) {
        response.pause();
        resolve();
      }
    });
  });
  return {
    response,
    finish: async () => {
      const ended = new Promise((resolve) => response.on('end', resolve));
      response.resume();
      await ended;
      return Buffer.concat(chunks);
    },
  };
}
