// Two catalogues unlike the bench's generated layouts, for `npm run bench -- --catalogue FILE`
// (issue 48: apply "on catalogues of every layout your bench generates and on others"):
//   wordy: the demo's records with long texts: every document's body about 6 KB (the
//     demo's are a few hundred characters), every picture's description and every
//     building's search text about 1 KB;
//   national: the demo's streets scattered over England (−5.5° to 1.5°, 50.2° to 55.5°),
//     each street's buildings moved together, so a street stays a street but the
//     catalogue covers a country, as a national list's would.
//   tsx bench/other-catalogues.ts [--scale 10] [--out DIR]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Catalogue, Feature } from '../src/catalogue/format.js';
import { generateDemoCatalogue } from '../src/demo/demo.js';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '10' }, out: { type: 'string', default: '.' } } });
const scale = Number(values.scale);

/** mulberry32: the same catalogues every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `text` repeated, with a counter, to about `chars` characters. */
const lengthened = (text: string, chars: number) => Array.from({ length: Math.max(1, Math.ceil(chars / (text.length + 8))) }, (_, i) => `${text} (${i + 1})`).join(' ');

function wordy(catalogue: Catalogue): Catalogue {
  for (const d of catalogue.documents) d.body = lengthened(d.body, 6_000);
  for (const i of catalogue.images) i.description = lengthened(i.description || i.title, 1_000);
  for (const f of catalogue.features) f.search_str = lengthened(f.search_str ?? f.address ?? String(f.id), 1_000);
  return catalogue;
}

function national(catalogue: Catalogue): Catalogue {
  const random = seeded(48);
  const offsets = new Map<string, [number, number]>();
  const [cx, cy] = [-0.06, 51.517];
  const offsetOf = (f: Feature): [number, number] => {
    const key = f.street ?? `no street ${f.id % 97}`;
    let offset = offsets.get(key);
    if (offset === undefined) offsets.set(key, (offset = [-5.5 + 7 * random() - cx, 50.2 + 5.3 * random() - cy]));
    return offset;
  };
  for (const f of catalogue.features) {
    const [dx, dy] = offsetOf(f);
    f.geometry = { ...f.geometry, coordinates: f.geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(([lon, lat]) => [lon! + dx, lat! + dy]))) };
  }
  return catalogue;
}

for (const [name, make] of [['wordy', wordy], ['national', national]] as const) {
  const file = path.join(values.out, `${name}-scale-${scale}.json`);
  fs.writeFileSync(file, JSON.stringify(make(generateDemoCatalogue({ scale, seed: 1 }))));
  console.log(`${file}: ${(fs.statSync(file).size / 1e6).toFixed(0)} MB`);
}
