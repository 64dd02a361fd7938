// `npm run bench -- --apply [--store …] [--scale 10]`: `heritage-api apply` end to end (the
// compiled command in a process of its own, as an archivist runs it: read, check, judge,
// write, derive, commit) on the bench's catalogue: one record, and 1,000 records spread over
// the catalogue (every crowded tile and much of the search text touched); names and text,
// and footprints moved (every zoom's tiles). Each change is
// applied in turns with a twin (an `A`/`B` mark), so every round changes something.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Catalogue, Feature, Ring } from '../src/catalogue/format.js';

const ROUNDS = 3;

interface DatabaseSettings {
  database: string;
  databaseSchema?: string;
}

type Change = (mark: string) => Record<string, unknown>;

function spread<T>(list: readonly T[], n: number): T[] {
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

function changes(catalogue: Catalogue): [string, Change][] {
  const middle = catalogue.features[Math.floor(catalogue.features.length / 2)]!;
  const image = catalogue.images[Math.floor(catalogue.images.length / 2)]!;
  const features = spread(catalogue.features, 1000);
  const mixed = { features: spread(catalogue.features, 250), images: spread(catalogue.images, 500), documents: spread(catalogue.documents, 200), media: spread(catalogue.media, 50) };
  const [document, media] = [catalogue.documents[Math.floor(catalogue.documents.length / 3)]!, catalogue.media[Math.floor(catalogue.media.length / 2)]!];
  const added = { ...image, id: Math.max(...catalogue.images.map((i) => i.id)) + 1, title: 'Added' };
  return [
    // What an archivist's day brings (the project's own `diff` of such an edit): mark A adds the image and removes the document, B takes both back.
    ['4 records: an address corrected, an image added, a document removed, a media record replaced', (m) => ({
      features: { put: [{ ...middle, address: `${middle.address} ${m}` }] },
      images: m === 'A' ? { put: [added] } : { remove: [added.id] },
      documents: m === 'A' ? { remove: [document.id] } : { put: [document] },
      media: { put: [{ ...media, title: `${media.title} ${m}` }] },
    })],
    ['1 feature renamed', (m) => ({ features: { put: [{ ...middle, b_name: `Renamed ${m}` }] } })],
    ['1 image retitled', (m) => ({ images: { put: [{ ...image, title: `Retitled ${m}` }] } })],
    ['1,000 features renamed, spread over the map', (m) => ({ features: { put: features.map((f) => ({ ...f, b_name: `${f.b_name ?? ''} ${m}` })) } })],
    ['1,000 records: 250 features, 500 images, 200 documents, 50 media', (m) => Object.fromEntries(Object.entries(mixed).map(([list, records]) => [list, { put: records.map((r) => marked(r, m)) }]))],
    // A footprint moved reaches every zoom: its tiles' cells counted again, the crowded ones recounted.
    ['1 footprint moved (about 30 m)', (m) => ({ features: { put: [moved(middle, m)] } })],
    ['1,000 footprints moved, spread over the map', (m) => ({ features: { put: features.map((f) => moved(f, m)) } })],
  ];
}

/** Mark A: the footprint shifted 0.0003° (about 30 m) north-east; B: as generated. */
function moved(feature: Feature, mark: string): Feature {
  if (mark !== 'A') return feature;
  const shift = (ring: Ring): Ring => ring.map(([lon, lat]) => [lon + 0.0003, lat + 0.0003]);
  return { ...feature, geometry: { ...feature.geometry, coordinates: feature.geometry.coordinates.map((polygon) => polygon.map(shift)) } };
}

/** A feature's address or a record's title, marked. */
function marked(record: object, mark: string): object {
  if ('address' in record) return { ...record, address: `${record.address} ${mark}` };
  if ('title' in record) return { ...record, title: `${record.title} ${mark}` };
  throw new Error('a record with neither address nor title');
}

/** `only`: the changes whose name holds it (every change when empty). */
export async function timeApply(entry: string, settings: DatabaseSettings, catalogue: Catalogue, dir: string, log: (line: string) => void, only = ''): Promise<void> {
  const db = ['--db', settings.database, ...(settings.databaseSchema ? ['--schema', settings.databaseSchema] : [])];
  // bash's `time`: the wall time, and the CPU time the process used (steadier on a shared machine).
  const said = path.join(dir, 'said.txt');
  const run = (file: string, ...flags: string[]) => {
    const script = 'TIMEFORMAT="%R %U %S"; { time "$@" 2>"$SAID"; } 2>&1';
    const child = spawnSync('bash', ['-c', script, 'bash', process.execPath, entry, 'apply', file, ...flags, ...db], { encoding: 'utf8', env: { ...process.env, SAID: said } });
    if (child.status !== 0) throw new Error(`apply failed: ${fs.readFileSync(said, 'utf8')}`);
    const [wall, user, system] = child.stdout.trim().split(/\s+/).map(Number);
    return { ms: wall! * 1000, cpuMs: (user! + system!) * 1000 };
  };
  log(`apply, end to end (the command's process, start to exit): wall time and CPU time, median of ${ROUNDS}:`);
  for (const [name, change] of changes(catalogue).filter(([name]) => name.includes(only))) {
    const files = ['A', 'B'].map((mark) => {
      const file = path.join(dir, `change-${mark}.json`);
      fs.writeFileSync(file, JSON.stringify({ format: 'heritage-changes/1', ...change(mark) }));
      return file;
    });
    const rounds = Array.from({ length: ROUNDS }, (_, i) => run(files[i % 2]!));
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const again = run(files[(ROUNDS - 1) % 2]!);
    const dry = run(files[ROUNDS % 2]!, '--dry-run');
    log(`  ${name}: ${seconds(median(rounds.map((r) => r.ms)))} wall, ${seconds(median(rounds.map((r) => r.cpuMs)))} CPU (rounds ${rounds.map((r) => seconds(r.ms)).join(', ')}); the same file again, a no-op: ${seconds(again.ms)} wall, ${seconds(again.cpuMs)} CPU; --dry-run ${seconds(dry.ms)} wall`);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
