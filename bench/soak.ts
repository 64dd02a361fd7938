// `npm run bench -- --soak [--minutes 10] [--quick] [--store …] [--scale …]`: a bounded soak.
// 32 keep-alive clients walk a shuffled list of more than 10,000 distinct URLs (pages at
// many page sizes, detail records, filters) so that the answer cache fills and evicts,
// with about 1 request in 20 a bad one (400, 404, 405) whose status is checked too. Any
// other status, a socket error or a cut answer is an error. The server's RSS is sampled
// every 5 s (VmRSS of /proc/<pid>/status): start, max, end.
import fs from 'node:fs';
import http from 'node:http';
import type { generateDemoCatalogue } from '../src/demo/demo.js';

type Catalogue = ReturnType<typeof generateDemoCatalogue>;

export interface SoakOptions {
  origin: string;
  pid: number;
  catalogue: Catalogue;
  seconds: number;
  connections: number;
  cacheMaxMb: number;
  log: (line: string) => void;
}

interface Probe {
  method: string;
  path: string;
  expect: number;
}

const SAMPLE_MS = 5000;

/** A small deterministic generator, so that two soaks ask the same URLs. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function goodUrls(catalogue: Catalogue, rnd: () => number): Probe[] {
  const urls = new Set<string>();
  const published = <T extends { published?: boolean }>(list: T[]) => list.filter((r) => r.published !== false);
  const collections = { features: catalogue.features, images: published(catalogue.images), documents: published(catalogue.documents), media: published(catalogue.media) };
  for (const [name, list] of Object.entries(collections)) {
    for (const size of [1, 2, 3, 5, 7, 10, 13, 20, 33, 50, 77, 100]) {
      const pages = Math.max(1, Math.ceil(list.length / size));
      for (let i = 0; i < Math.min(pages, 1500); i++) urls.add(`/api/v1/${name}/?page=${1 + Math.floor(rnd() * pages)}&page_size=${size}`);
    }
    for (let i = 0; i < Math.min(list.length, 3000); i++) urls.add(`/api/v1/${name}/${list[Math.floor(rnd() * list.length)]!.id}/`);
  }
  for (let i = 0; i < 1500; i++) {
    const feature = catalogue.features[Math.floor(rnd() * catalogue.features.length)]!;
    const [lon, lat] = feature.geometry.coordinates[0]![0]![0]!;
    const d = 0.0005 + rnd() * 0.003;
    urls.add(`/api/v1/features/?bbox=${[lon! - d, lat! - d, lon! + d, lat! + d].map((n) => n.toFixed(5)).join(',')}`);
    const from = 1700 + Math.floor(rnd() * 250);
    urls.add(`/api/v1/features/?year_range=${from},${from + Math.floor(rnd() * 100)}`);
  }
  for (const word of ['street', 'church', 'synag', 'fourn', 'chapel', 'brick', 'lane', 'house', 'market', 'pub', 'school', 'hall']) {
    for (const collection of Object.keys(collections)) urls.add(`/api/v1/${collection}/?q=${word}`);
  }
  return [...urls].map((path) => ({ method: 'GET', path, expect: 200 }));
}

/** Bad requests with the status each must get; the counter makes each URL distinct. */
function badUrl(n: number): Probe {
  const kinds: Probe[] = [
    { method: 'GET', path: `/api/v1/features/?bbox=junk${n}`, expect: 400 },
    { method: 'GET', path: `/api/v1/images/?date_range=2016-99-${n}`, expect: 400 },
    { method: 'GET', path: `/api/v1/nothing-${n}/`, expect: 404 },
    { method: 'GET', path: `/api/v1/documents/?page=${900_000 + n}`, expect: 404 },
    { method: 'GET', path: `/api/v1/features/${10_000_000 + n}/`, expect: 404 },
    { method: 'POST', path: `/api/v1/features/?n=${n}`, expect: 405 },
    { method: 'DELETE', path: `/api/v1/media/?n=${n}`, expect: 405 },
  ];
  return kinds[n % kinds.length]!;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

function shuffle<T>(list: T[], rnd: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

export async function runSoak(options: SoakOptions): Promise<void> {
  const { origin, pid, log } = options;
  const rnd = random(7);
  const good = shuffle(goodUrls(options.catalogue, rnd), rnd);
  const { hostname, port } = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const asked = new Set<string>();
  const unexpected = new Map<string, number>();
  let requests = 0;
  let bad = 0;
  let errors = 0;
  let cursor = 0;
  const deadline = Date.now() + options.seconds * 1000;
  const samples: number[] = [rssMb(pid)];
  log(`soak: ${options.seconds} s, ${options.connections} keep-alive connections, ${good.length} distinct good URLs (+ 1 in 20 bad), answer cache CACHE_MAX_MB=${options.cacheMaxMb}, RSS sampled every ${SAMPLE_MS / 1000} s; server RSS at start ${samples[0]} MB`);
  const sampler = setInterval(() => samples.push(rssMb(pid)), SAMPLE_MS);
  const reporter = setInterval(() => log(`  ${Math.round((options.seconds * 1000 - (deadline - Date.now())) / 1000)} s: ${requests} requests, ${asked.size} distinct URLs, ${errors} errors, RSS ${samples.at(-1)} MB`), 60_000);
  const ask = (probe: Probe) =>
    new Promise<void>((resolve) => {
      const fail = (what: string) => {
        errors++;
        unexpected.set(what, (unexpected.get(what) ?? 0) + 1);
        resolve();
      };
      const req = http.request({ host: hostname, port, method: probe.method, path: probe.path, agent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => (res.statusCode === probe.expect && res.complete ? resolve() : fail(`${probe.method} ${probe.path}: status ${res.statusCode} (expected ${probe.expect})`)));
        res.on('error', (e) => fail(`answer cut: ${e.message}`));
      });
      req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
      req.on('error', (e: NodeJS.ErrnoException) => fail(`socket: ${e.code ?? e.message}`));
      req.end();
    });
  const client = async () => {
    while (Date.now() < deadline) {
      const n = cursor++;
      const probe = n % 20 === 19 ? badUrl(n) : good[n % good.length]!;
      if (probe.expect !== 200) bad++;
      asked.add(`${probe.method} ${probe.path}`);
      requests++;
      await ask(probe);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  clearInterval(sampler);
  clearInterval(reporter);
  agent.destroy();
  samples.push(rssMb(pid));
  const max = Math.max(...samples);
  log(`soak result: ${requests} requests (${Math.round(requests / options.seconds)}/s), ${asked.size} distinct URLs, ${bad} bad requests answered as expected or counted below, errors ${errors}`);
  for (const [what, count] of [...unexpected].slice(0, 20)) log(`  error: ${what} × ${count}`);
  log(`server RSS: start ${samples[0]} MB, max ${max} MB, end ${samples.at(-1)} MB (${samples.length} samples)`);
  if (errors > 0) process.exitCode = 1;
}
