// Issue 45's proof that contributed pictures' writes hold, shared by its three files
// (picture-races, picture-crashes, picture-hosts): real `serve` processes on one database
// (started, stopped, killed with SIGKILL), a contributor and two editors as browsers whose
// cookies any of the processes accept (the session is in the database), tiny pictures made
// with sharp, and what each decision's page and each public URL answer, read over HTTP.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { buildTestCatalogue } from './catalogue.js';
import { CLI_ENTRY, ensureCliBuilt } from './cli-entry.js';
import { runCli } from './cli.js';
import { databaseRows } from './database-rows.js';
import { FormClient, csrfOf, seenOf } from './form-client.js';
import { request, type Answer, type HttpTarget, type RequestOptions } from './http.js';
import { importInto } from './server.js';
import type { TestDatabase } from './stores.js';
import { temporaryDir } from './temporary.js';

export const PASSWORD = 'a long walk down Brick Lane';
/** The building every picture is sent for (the test catalogue's first). */
export const FEATURE = 1;

export interface Serve {
  child: ChildProcess;
  origin: string;
  /** Its working folder (its own, removed when it stops). */
  cwd: string;
  stderr(): string;
  exited: Promise<void>;
}

/**
 * `serve` with contributions on, in a working folder of its own (nothing on disk shared with
 * another: no MEDIA_ROOT, kept GeoPackages in that folder), resolved once it listens.
 */
export function startServe(dbArgs: string[], env: Record<string, string> = {}): Promise<Serve> {
  ensureCliBuilt();
  const cwd = temporaryDir();
  const child = spawn(process.execPath, [CLI_ENTRY, 'serve', '--port', '0', '--host', '127.0.0.1', '--log-level', 'warn', ...dbArgs], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SHUTDOWN_DELAY_MS: '0', CONTRIBUTIONS: 'on', DOWNLOAD_CACHE_DIR: path.join(cwd, 'downloads'), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => {
    fs.rmSync(cwd, { recursive: true, force: true });
    resolve();
  }));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-20_000);
      const match = /serving .* at (http:\/\/\S+?)\/api\/v1\//.exec(stderr);
      if (match) resolve({ child, origin: match[1]!, cwd, stderr: () => stderr, exited });
    });
    void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
  });
}

/** SIGTERM (SIGKILL after 10 s), resolved once it has exited. */
export async function stopServe(serve: Serve): Promise<void> {
  if (serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill('SIGTERM');
    const late = setTimeout(() => serve.child.kill('SIGKILL'), 10_000);
    await serve.exited;
    clearTimeout(late);
  }
}

/** kill -9, resolved once it has gone. */
export async function killServe(serve: Serve): Promise<void> {
  serve.child.kill('SIGKILL');
  await serve.exited;
}

/** A target whose server may change (a process restarted on another port): a browser keeps its cookies across. */
export class Door implements HttpTarget {
  constructor(public origin: string) {}
  request(pathAndQuery: string, options?: RequestOptions): Promise<Answer> {
    return request(this.origin, pathAndQuery, { timeoutMs: 30_000, ...options });
  }
}

/** A test database with the test catalogue, a contributor's account (`pat-photos`) and two editors' (`ed-one`, `ed-two`). */
export async function deskDatabase(database: TestDatabase): Promise<void> {
  await importInto(database.settings, buildTestCatalogue());
  for (const name of ['pat-photos', 'ed-one', 'ed-two']) {
    const role = name === 'pat-photos' ? [] : ['--role', 'editor'];
    const made = await runCli(['users', 'add', name, ...role, ...database.args], { input: `${PASSWORD}\n` });
    assert.equal(made.code, 0, made.stderr);
  }
}

/** A browser signed in as `username` through `door`. */
export async function signedIn(door: Door, username: string): Promise<FormClient> {
  const browser = new FormClient(door);
  const answer = await browser.submit('/account/signin', { username, password: PASSWORD });
  assert.equal(answer.status, 303, `${username} signed in`);
  return browser;
}

/** A tiny JPEG (40 × 30) of a colour of its own, so that no two have the same bytes. */
export function tinyJpeg(n: number): Promise<Buffer> {
  const colour = { r: (n * 37) % 256, g: (n * 91) % 256, b: (n * 53 + 128) % 256 };
  return sharp({ create: { width: 40, height: 30, channels: 3, background: colour } }).jpeg().toBuffer();
}

export const PICTURE_FIELDS = { description: 'Seen from the corner.', created: '1975-06-01', licence: 'open' };

/** The picture form of FEATURE, filled in and encoded: the POST the contributor sends. */
export async function pictureForm(contributor: FormClient, title: string, bytes: Buffer): Promise<FormData> {
  const page = await contributor.get(`/contribute/${FEATURE}/image`);
  assert.equal(page.status, 200, 'the picture form');
  const data = new FormData();
  data.append('csrf', csrfOf(page.text));
  data.append('title', title);
  for (const [name, value] of Object.entries(PICTURE_FIELDS)) data.append(name, value);
  data.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'photo.jpg');
  return data;
}

export interface Sent {
  id: number;
  upload: string;
  title: string;
}

interface ContributionState {
  id: number;
  state: string;
  upload: string;
  title: string;
  recordId: number | null;
}

/** Every image contribution as the store holds it, by id. */
export async function imageContributions(database: TestDatabase): Promise<ContributionState[]> {
  const rows = await databaseRows(database, "SELECT id, state, fields, record_id FROM contributions WHERE kind = 'image' ORDER BY id");
  return rows.map((r) => {
    const fields = JSON.parse(String(r.fields)) as { upload: string; title: string };
    return { id: Number(r.id), state: String(r.state), upload: fields.upload, title: fields.title, recordId: r.record_id === null ? null : Number(r.record_id) };
  });
}

/** A picture sent (303) and found in the store by its title (unique per test). */
export async function sendPicture(contributor: FormClient, database: TestDatabase, title: string, n: number): Promise<Sent> {
  const answer = await contributor.postMultipart(`/contribute/${FEATURE}/image`, await pictureForm(contributor, title, await tinyJpeg(n)));
  assert.equal(answer.status, 303, `sent: ${answer.text.slice(0, 300)}`);
  const found = (await imageContributions(database)).filter((c) => c.title === title);
  assert.equal(found.length, 1, `one contribution titled ${title}`);
  return { id: found[0]!.id, upload: found[0]!.upload, title };
}

/** An editor's review page of a contribution: what a decision sends back. */
export interface Review {
  csrf: string;
  seen: string;
}

export async function reviewOf(editor: FormClient, id: number): Promise<Review> {
  const page = await editor.get(`/moderate/${id}`);
  assert.equal(page.status, 200, `review of ${id}`);
  return { csrf: csrfOf(page.text), seen: seenOf(page.text) };
}

export const decide = {
  approve: (editor: FormClient, id: number, review: Review, title: string) =>
    editor.post(`/moderate/${id}/approve`, { csrf: review.csrf, seen: review.seen, title, ...PICTURE_FIELDS, action: 'approve' }),
  save: (editor: FormClient, id: number, review: Review, title: string) =>
    editor.post(`/moderate/${id}/approve`, { csrf: review.csrf, seen: review.seen, title, ...PICTURE_FIELDS, action: 'save' }),
  reject: (editor: FormClient, id: number, review: Review) =>
    editor.post(`/moderate/${id}/reject`, { csrf: review.csrf, seen: review.seen, reason: 'Not this building.' }),
};

/** The record an approval's 303 names (/pictures/{id}/). */
export function approvedRecord(answer: Answer): number {
  const m = /\/pictures\/(\d+)\/$/.exec(String(answer.headers.location ?? ''));
  assert.ok(m, `an approval's 303 to the record: ${answer.status} ${String(answer.headers.location)}`);
  return Number(m[1]);
}

/** A record's undo form on its history page: where it posts, with the page's csrf. */
export async function undoForm(editor: FormClient, recordId: number): Promise<{ action: string; csrf: string }> {
  const history = await editor.get(`/history/images/${recordId}`);
  assert.equal(history.status, 200);
  const action = /action="[^"]*(\/history\/images\/\d+\/revert\/\d+)"/.exec(history.text)?.[1];
  assert.ok(action, 'an undo form on the history page');
  return { action, csrf: csrfOf(history.text) };
}

/** The public URLs of a picture: its display size and thumbnail. */
export const pictureUrls = (upload: string) => [`/media/contributions/${upload}.jpg`, `/media/contributions/${upload}-small.jpg`];

/**
 * Polls `url` on `origin` until it answers `status`, at most `ms`; any answer but 200 or 404
 * fails at once, and so does `never` when seen. Resolves with the answer and how long it took.
 */
export async function eventually(origin: string, url: string, status: 200 | 404, options: { ms?: number; never?: number } = {}): Promise<{ answer: Answer; ms: number }> {
  const start = performance.now();
  const deadline = start + (options.ms ?? 10_000);
  const seen: number[] = [];
  for (;;) {
    const answer = await request(origin, url, { timeoutMs: 30_000 });
    if (answer.status !== 200 && answer.status !== 404) assert.fail(`${origin}${url}: ${answer.status} ${answer.text.slice(0, 300)}`);
    if (options.never !== undefined && answer.status === options.never) assert.fail(`${origin}${url} answered ${answer.status}, which it never may here`);
    if (answer.status === status) return { answer, ms: performance.now() - start };
    seen.push(answer.status);
    if (performance.now() > deadline) assert.fail(`${origin}${url} did not answer ${status} within ${options.ms ?? 10_000} ms (answered ${[...new Set(seen)].join(', ')})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sizes of `upload` the store keeps, and the record they are attached to. */
/**
 * A pending picture approved through `here` and then undone: how long `there` took to serve it
 * (the same bytes and validator as `here`), and then to answer 404 again (as `here` does).
 */
export async function approvedThenUndone(editor: FormClient, picture: Sent, here: string, there: string): Promise<{ approvedMs: number; undoneMs: number }> {
  const urls = pictureUrls(picture.upload);
  const recordId = approvedRecord(await decide.approve(editor, picture.id, await reviewOf(editor, picture.id), picture.title));
  const approvedMs = (await eventually(there, urls[0]!, 200, { ms: 10_000 })).ms;
  for (const url of urls) {
    const [mine, theirs] = await Promise.all([request(here, url), request(there, url)]);
    assert.deepEqual([mine.status, theirs.status], [200, 200], url);
    assert.ok(mine.bytes.equals(theirs.bytes), 'the same bytes');
    assert.equal(mine.headers.etag, theirs.headers.etag, 'the same validator');
  }
  const undo = await undoForm(editor, recordId);
  assert.equal((await editor.post(undo.action, { csrf: undo.csrf })).status, 303);
  const undoneMs = (await eventually(there, urls[0]!, 404, { ms: 10_000 })).ms;
  for (const url of urls) assert.deepEqual([(await request(here, url)).status, (await request(there, url)).status], [404, 404], url);
  return { approvedMs, undoneMs };
}

export async function keptSizes(database: TestDatabase, upload: string): Promise<{ sizes: string[]; recordIds: (number | null)[] }> {
  const rows = await databaseRows(database, 'SELECT size, record_id FROM contribution_pictures WHERE upload = $1 ORDER BY size', [upload]);
  return { sizes: rows.map((r) => String(r.size)), recordIds: [...new Set(rows.map((r) => (r.record_id === null ? null : Number(r.record_id))))] };
}

export const ALL_SIZES = ['display', 'full', 'thumbnail'];

/** A seeded generator (mulberry32): the same seed, the same delays, so a failure can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
