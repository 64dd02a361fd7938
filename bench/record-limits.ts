// How long the heaviest answers block the event loop when every record is at the limits of
// src/catalogue/limits.ts (issue 15: no answer may block it for more than 100 ms).
//   node --import tsx bench/record-limits.ts [--db postgres://…] [--schema s] [--features N]
// Builds a catalogue whose features each have the most positions and bytes allowed and whose
// documents each have the longest body, imports it (no answer cache: every request renders),
// and reports the longest event-loop delay seen (perf_hooks) while each answer is made.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Catalogue, Feature } from '../src/catalogue/format.js';
import { formatCatalogue } from '../src/catalogue/dump.js';
import { parseCatalogueBytes } from '../src/catalogue/validate.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { openStore } from '../src/store/open.js';
import { replaceCatalogue } from '../src/store/replace.js';

const { values: args } = parseArgs({ options: { db: { type: 'string' }, schema: { type: 'string' }, features: { type: 'string' }, rounds: { type: 'string' } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-limits-'));
const settings = { database: args.db ?? path.join(dir, 'limits.db'), databaseSchema: args.schema ?? 'record_limits' };
const limits = loadConfig(settings).catalogueLimits;
const FEATURES = Number(args.features ?? 120);
const ROUNDS = Number(args.rounds ?? 3);

/** A closed ring of `n` positions around a centre, coordinates of realistic precision. */
function ring(n: number, lon: number, lat: number): [number, number][] {
  const positions: [number, number][] = [];
  for (let i = 0; i < n - 1; i++) {
    const a = (2 * Math.PI * i) / (n - 1);
    positions.push([Number((lon + 0.0004 * Math.cos(a)).toFixed(7)), Number((lat + 0.0003 * Math.sin(a)).toFixed(7))]);
  }
  positions.push(positions[0]!);
  return positions;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Pads one string of a record so that the record is as large as the limit allows. */
function fill<T>(record: T, key: keyof T): T {
  const room = Math.min(limits.maxStringChars, limits.maxRecordBytes - bytes(record) + String(record[key]).length);
  return { ...record, [key]: 'x'.repeat(Math.max(0, room)) };
}

/** A media record's URL made as long as the limits allow (titles stay short: see docs/operators.md, Security). */
function fillUrl<T extends { url: string }>(record: T): T {
  const padded = fill(record, 'url');
  return { ...padded, url: `https://example.org/v?${padded.url.slice(22)}` };
}

function catalogueAtTheLimits(): Catalogue {
  const features: Feature[] = [];
  for (let i = 0; i < FEATURES; i++) {
    const lon = -0.075 + (i % 12) * 0.001;
    const lat = 51.515 + Math.floor(i / 12) * 0.0008;
    let positions = limits.maxPositions;
    const make = (n: number): Feature => ({
      id: i + 1, feature_type: 'WHITECHAPEL_BUILDING', b_number: String(i), b_name: 'b', street: 's', postcode: 'E1', address: '',
      current: null, site: null, categories: [1], tags: ['t'], search_str: '', geometry: { type: 'MultiPolygon', coordinates: [[ring(n, lon, lat)]] },
    });
    while (bytes(make(positions)) > limits.maxRecordBytes) positions = Math.floor(positions * 0.95);
    features.push(fill(make(positions), 'address'));
  }
  const attached = (i: number) => ({ id: i + 1, feature: (i % FEATURES) + 1, author: 1, title: 't', published: true });
  return {
    format: 'heritage-catalogue/1',
    authors: [{ id: 1, username: 'a' }],
    categories: [{ id: 1, name: 'c', description: '', thumbnail: 'c.png' }],
    sites: [],
    features,
    images: Array.from({ length: FEATURES }, (_, i) => fill({ ...attached(i), file: `i/${i}.jpg`, description: '', copyright: false, created: null }, 'description')),
    documents: Array.from({ length: FEATURES }, (_, i) => fill({ ...attached(i), body: '', created: '2016-01-01', last_edited: '2016-01-01' }, 'body')),
    media: Array.from({ length: FEATURES }, (_, i) => fillUrl({ ...attached(i), url: 'https://example.org/v?' })),
  };
}

function tileOf(lon: number, lat: number, z: number): string {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return `/tiles/features/${z}/${x}/${y}.mvt`;
}

/** Builds, checks and imports the catalogue; nothing of it stays in memory to slow the server's GC. */
async function importAtTheLimits(): Promise<void> {
  const catalogue = catalogueAtTheLimits();
  const text = formatCatalogue(catalogue);
  const checked = parseCatalogueBytes(Buffer.from(text), limits);
  if (!checked.ok) throw new Error(`the catalogue at the limits is refused: ${JSON.stringify(checked.problems.slice(0, 3))}`);
  const store = await openStore(loadConfig(settings), { create: true });
  await replaceCatalogue(store, checked.catalogue);
  await store.close();
  const f = catalogue.features[0]!;
  process.stdout.write(`limits ${JSON.stringify(limits)}; ${FEATURES} features of ${f.geometry.coordinates[0]![0]!.length} positions, ${bytes(f)} bytes; document bodies of ${catalogue.documents[0]!.body.length} characters; file ${(text.length / 1e6).toFixed(1)} MB\n`);
}

async function main(): Promise<void> {
  await importAtTheLimits();
  const server = await startServer(loadConfig({ ...settings, port: '0', logLevel: 'silent', cacheMaxMb: '0', rateLimit: 'off' }, {}));
  const origin = new URL(server.address).origin;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const urls = [
    '/api/v1/features/?page_size=100', '/api/v1/features/1/', '/api/v1/images/?page_size=100', '/api/v1/images/1/',
    '/api/v1/documents/?page_size=100', '/api/v1/documents/1/', '/api/v1/media/?page_size=100', '/api/v1/features/?q=x&page_size=100',
    tileOf(-0.07, 51.517, 12), tileOf(-0.07, 51.517, 14), tileOf(-0.07, 51.517, 16), '/map/config.json',
  ];
  let worst = 0;
  // The machine may be shared: the least of the rounds is what the answer itself costs, the
  // most is what it cost at the worst moment.
  for (const url of urls) {
    let maxMs = 0;
    let minMs = Infinity;
    let size = 0;
    for (let round = 0; round < ROUNDS; round++) {
      delay.reset();
      const answer = await fetch(origin + url);
      size = (await answer.arrayBuffer()).byteLength;
      if (answer.status >= 400) throw new Error(`${url}: ${answer.status}`);
      await new Promise((resolve) => setTimeout(resolve, 5)); // let the histogram see the last delay
      maxMs = Math.max(maxMs, delay.max / 1e6);
      minMs = Math.min(minMs, delay.max / 1e6);
    }
    worst = Math.max(worst, minMs);
    process.stdout.write(`${url.padEnd(40)} ${(size / 1e6).toFixed(2).padStart(6)} MB  longest event-loop block: least ${minMs.toFixed(0).padStart(4)} ms, most ${maxMs.toFixed(0).padStart(4)} ms of ${ROUNDS}\n`);
  }
  process.stdout.write(`worst answer (least of its rounds): ${worst.toFixed(0)} ms; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores\n`);
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
