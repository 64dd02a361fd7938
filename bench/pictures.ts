// `npm run bench -- --pictures [--store …] [--seconds 10] [--connections 32] [--rounds N]`:
// contributed pictures served from the store (issue 45). A contributor sends a photograph
// (2,400 × 1,600, smooth with grain: about what a phone sends), an editor approves it, and
// wrk asks for its display size (/media/contributions/{uuid}.jpg):
// - cached: the same URL again and again, from the answer cache after the first;
// - uncached: the same URL from a second `serve` over the same database with CACHE_MAX_MB=0
//   (no answer cache), so that every request reads the picture's row from the store;
// - as a file: the same bytes written under MEDIA_ROOT and served by /media/ (@fastify/static),
//   what a site kept its pictures as before.
// Every server runs with its default settings (request log lines on standard output, a pipe
// read and discarded), CONTRIBUTIONS=on and a MEDIA_ROOT; each round asks the three in turn.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { FormClient, csrfOf, seenOf } from '../test/support/form-client.js';
import { socketTarget } from '../test/support/http.js';
import { runWrk, writeMixScript, type Load } from './wrk.js';

const PASSWORD = 'a bench of patient editors';

interface Settings {
  database: string;
  databaseSchema?: string;
}

interface Served {
  origin: string;
  child: { pid?: number };
}

export interface PictureBench {
  entry: string;
  settings: Settings;
  dir: string;
  featureId: number;
  /** bench.ts's `serve` with its defaults and `env`. */
  start(env: Record<string, string>): Promise<Served>;
  seconds: number;
  connections: number;
  rounds: number;
  /** The core wrk runs on, or null. */
  core: number | null;
  log(line: string): void;
}

/** A photograph-like picture: a smooth gradient under a fine grain, as a camera's JPEG. */
async function photograph(): Promise<Buffer> {
  const [width, height] = [2400, 1600];
  const scene = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#8a6"/><stop offset="0.5" stop-color="#c97"/><stop offset="1" stop-color="#357"/></linearGradient><rect width="100%" height="100%" fill="url(#g)"/></svg>`))
    .raw().toBuffer();
  for (let i = 0, seed = 11; i < scene.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    scene[i] = Math.max(0, Math.min(255, scene[i]! + ((seed >>> 24) % 61) - 30));
  }
  return sharp(scene, { raw: { width, height, channels: 4 } }).jpeg({ quality: 90 }).toBuffer();
}

/** Sent by a contributor and approved by an editor through `origin`: the public path of its display size. */
async function publishedPicture(bench: PictureBench, origin: string): Promise<string> {
  const schema = bench.settings.databaseSchema ? ['--schema', bench.settings.databaseSchema] : [];
  const added = spawnSync(process.execPath, [bench.entry, 'users', 'add', 'bench-editor', '--role', 'editor', '--db', bench.settings.database, ...schema], { input: `${PASSWORD}\n`, encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`users add: ${added.stderr}`);
  const target = socketTarget(origin);
  const [contributor, editor] = [new FormClient(target), new FormClient(target)];
  if ((await contributor.submit('/account/signup', { username: 'bench-photographer', password: PASSWORD })).status !== 303) throw new Error('sign-up refused');
  if ((await editor.submit('/account/signin', { username: 'bench-editor', password: PASSWORD })).status !== 303) throw new Error('sign-in refused');
  const page = await contributor.get(`/contribute/${bench.featureId}/image`);
  const form = new FormData();
  const fields = { title: 'The street front', description: '', created: '', licence: 'open' };
  form.append('csrf', csrfOf(page.text));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([await photograph()], { type: 'image/jpeg' }), 'front.jpg');
  const sent = await contributor.postMultipart(`/contribute/${bench.featureId}/image`, form);
  if (sent.status !== 303) throw new Error(`the picture was refused (${sent.status}): ${sent.text.slice(0, 200)}`);
  const id = /\/moderate\/(\d+)"/.exec((await editor.get('/moderate/')).text)?.[1];
  if (id === undefined) throw new Error('the picture is not in the editors\' queue');
  const review = await editor.get(`/moderate/${id}`);
  const approved = await editor.post(`/moderate/${id}/approve`, { csrf: csrfOf(review.text), seen: seenOf(review.text), ...fields, action: 'approve' });
  const record = /\/pictures\/(\d+)\/$/.exec(String(approved.headers.location))?.[1];
  if (approved.status !== 303 || record === undefined) throw new Error(`approval refused (${approved.status})`);
  const file = (await target.request(`/api/v1/images/${record}/`)).json().file as string;
  return new URL(file).pathname;
}

async function bytesAt(origin: string, url: string): Promise<Buffer> {
  const response = await fetch(origin + url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

export async function timePictures(bench: PictureBench): Promise<void> {
  const media = path.join(bench.dir, 'media');
  fs.mkdirSync(path.join(media, 'comparison'), { recursive: true });
  const env = { CONTRIBUTIONS: 'on', MEDIA_ROOT: media };
  const cachedServer = await bench.start(env);
  const picture = await publishedPicture(bench, cachedServer.origin);
  const bytes = await bytesAt(cachedServer.origin, picture);
  // The same bytes as a file under the media root.
  const asFile = `/media/comparison/${path.basename(picture)}`;
  fs.writeFileSync(path.join(media, 'comparison', path.basename(picture)), bytes);
  if (!(await bytesAt(cachedServer.origin, asFile)).equals(bytes)) throw new Error('the media root served other bytes');
  const uncachedServer = await bench.start({ ...env, CACHE_MAX_MB: '0' });
  if (!(await bytesAt(uncachedServer.origin, picture)).equals(bytes)) throw new Error('the server without a cache served other bytes');
  const thumbnail = await bytesAt(cachedServer.origin, picture.replace(/\.jpg$/, '-small.jpg'));
  const cases: [string, Served, string][] = [
    ['cached (answer cache)', cachedServer, picture],
    ['uncached (CACHE_MAX_MB=0)', uncachedServer, picture],
    ['as a file (/media/)', cachedServer, asFile],
  ];
  bench.log(`pictures: the display size of one approved picture, ${(bytes.length / 1024).toFixed(0)} KB (its thumbnail ${(thumbnail.length / 1024).toFixed(1)} KB), ${picture}; wrk, 1 thread, ${bench.connections} keep-alive connections, ${bench.seconds} s measured after 1 s warm-up, ${bench.rounds} round(s), the three in turn each round; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const runs = new Map<string, Load[]>(cases.map(([name]) => [name, []]));
  for (let round = 0; round < bench.rounds; round++) {
    for (const [name, server, url] of cases) {
      const script = writeMixScript(bench.dir, [url]);
      const options = { origin: server.origin, script, connections: bench.connections, core: bench.core, serverPid: server.child.pid! };
      await runWrk({ ...options, seconds: 1 });
      runs.get(name)!.push(await runWrk({ ...options, seconds: bench.seconds }));
    }
  }
  const median = (loads: Load[], pick: (l: Load) => number) => loads.map(pick).sort((a, b) => a - b)[Math.floor(loads.length / 2)]!;
  for (const [name] of cases) {
    const loads = runs.get(name)!;
    const errors = loads.reduce((sum, l) => sum + l.errors, 0);
    bench.log(`  ${name.padEnd(26)} req/s ${String(median(loads, (l) => l.rps)).padStart(6)}  p50 ${median(loads, (l) => l.p50).toFixed(2)} ms  p99 ${median(loads, (l) => l.p99).toFixed(2)} ms  CPU ${median(loads, (l) => l.cpuUs).toFixed(0)} µs/request  ${(median(loads, (l) => l.rps) * bytes.length / 2 ** 20).toFixed(0)} MB/s  errors ${errors}  [req/s ${loads.map((l) => l.rps).join(', ')}; p99 ${loads.map((l) => l.p99.toFixed(1)).join(', ')}]`);
  }
  bench.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
