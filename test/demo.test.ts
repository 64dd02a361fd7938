// The demo catalogue generator: deterministic, the right size, valid, and as awkward as
// the real Whitechapel catalogue. Scale 10 in demo-slow.test.ts (npm run test:slow).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { demoRecords, generateDemoCatalogue, INIT_DEMO } from '../src/demo/demo.js';
import { demoFileChunks } from '../src/demo/file.js';
import { notingPictures, writeCatalogueMedia, type PictureNote } from '../src/demo/pictures.js';
import { CATEGORY_PALETTE } from '../src/palette.js';
import { decodePng } from './support/png-decode.js';
import { temporaryDir } from './support/temporary.js';
import { defaultSearchStr, type Catalogue, type Feature, type Position } from '../src/catalogue/format.js';
import { validateCatalogue } from '../src/catalogue/validate.js';

const scale1 = generateDemoCatalogue({ scale: 1, seed: 1 });
const tiny = generateDemoCatalogue({ scale: 0.01, seed: 5 });

const LISTS = ['authors', 'categories', 'sites', 'features', 'images', 'documents', 'media'] as const;
const KEYS: Record<(typeof LISTS)[number], string[]> = {
  authors: ['id', 'username'],
  categories: ['id', 'name', 'description', 'thumbnail'],
  sites: ['id', 'name'],
  features: ['id', 'feature_type', 'b_number', 'b_name', 'street', 'postcode', 'address', 'current', 'site', 'categories', 'tags', 'search_str', 'geometry'],
  images: ['id', 'feature', 'author', 'title', 'file', 'description', 'copyright', 'created', 'published'],
  documents: ['id', 'feature', 'author', 'title', 'body', 'created', 'last_edited', 'published'],
  media: ['id', 'feature', 'author', 'title', 'url', 'published'],
};

function decimals(n: number): number {
  const text = String(n);
  assert.ok(!text.includes('e'), `${text} is written with an exponent`);
  return text.includes('.') ? (text.split('.')[1] as string).length : 0;
}

function positions(f: Feature): Position[] {
  return f.geometry.coordinates.flat(2);
}

function fileName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

/** Everything awkward a catalogue must show; `tiny` and `scale1` both have to. */
function assertAwkward(c: Catalogue): void {
  const buildings = c.features.filter((f) => f.feature_type === 'WHITECHAPEL_BUILDING');
  assert.ok(c.features.some((f) => f.geometry.coordinates.some((polygon) => polygon.length > 1)), 'a feature with an inner ring');
  assert.ok(c.features.some((f) => f.geometry.coordinates.length > 1), 'a multi-part feature');
  assert.ok(c.features.some((f) => f.feature_type === 'PLACE'), 'a PLACE');
  const areas = c.features.filter((f) => f.feature_type === 'GREATER_WHITECHAPEL');
  assert.ok(areas.length > 0, 'a GREATER_WHITECHAPEL feature');
  for (const f of areas) {
    assert.deepEqual([f.b_number, f.b_name, f.street, f.current, f.site, f.categories, f.tags], [null, null, null, null, null, [], []]);
    assert.match(f.address, /^[A-Z][A-Za-z' ]+$/);
    assert.match(f.postcode, /^E[C]?\d{1,2}W?$/);
  }
  assert.ok(buildings.some((f) => f.b_name === null) && buildings.some((f) => f.b_name === ''), 'b_name both null and ""');
  const names = c.images.map((i) => fileName(i.file));
  for (const ch of [' ', "'", '#', '&', '%', '(', ')']) assert.ok(names.some((n) => n.includes(ch)), `a file name with ${JSON.stringify(ch)}`);
  assert.ok(names.some((n) => /[^\x00-\x7f]/.test(n)), 'a file name with a non-ASCII letter');
  assert.ok(c.documents.some((d) => d.body.includes('[^1]') && d.body.includes('<p>[^1]: ')), 'a document with a footnote');
  for (const list of [c.images, c.documents, c.media]) {
    assert.ok(list.some((r) => !r.published), 'an unpublished record of each kind');
    assert.ok(list.some((r) => r.published), 'a published record of each kind');
  }
  assert.ok(c.features.some((f) => positions(f).some(([lon, lat]) => decimals(lon) >= 14 && decimals(lat) >= 14)), '14+ decimal coordinates');
  const perSite = new Map<number, number>();
  for (const f of c.features) if (f.site !== null) perSite.set(f.site, (perSite.get(f.site) ?? 0) + 1);
  assert.ok([...perSite.values()].some((n) => n >= 2), 'a site shared by several features');
}

test('the same scale and seed give byte-identical catalogues; another seed a different one', () => {
  const a = JSON.stringify(generateDemoCatalogue({ scale: 0.2, seed: 42 }));
  const b = JSON.stringify(generateDemoCatalogue({ scale: 0.2, seed: 42 }));
  const c = JSON.stringify(generateDemoCatalogue({ scale: 0.2, seed: 43 }));
  assert.equal(a, b);
  assert.notEqual(a, c);
  assert.equal(JSON.stringify(generateDemoCatalogue({ scale: 1, seed: 1 })), JSON.stringify(scale1));
  assert.notEqual(JSON.stringify(generateDemoCatalogue({ scale: 0.01, seed: 6 })), JSON.stringify(tiny));
});

// Digests of `demo`'s file text, taken from the generator before it was split into small
// functions (issue 17): the output may not change by a byte.
const PINNED = [
  { options: { scale: 0.01, seed: 5 }, sha256: 'f7b2a12caca137c63d5a41ee48409d29d10d8d46fdd2fbf05e87367d21b15374' },
  { options: INIT_DEMO, sha256: '1cd1fb3c259117d5ca50c469208a92b9cd3cf6d6f84a0c8fc106f22df3cfabc7' },
];

test('the file text is the same bytes as before the generator was split', () => {
  for (const { options, sha256 } of PINNED) {
    const text = [...demoFileChunks(demoRecords(options))].join('');
    assert.equal(createHash('sha256').update(text).digest('hex'), sha256, JSON.stringify(options));
  }
});

test('the pictures noted on the way are every category thumbnail, then every image file', () => {
  const notes: PictureNote[] = [];
  for (const record of notingPictures(demoRecords({ scale: 0.01, seed: 5 }), notes)) assert.ok(record.list.length > 0);
  assert.deepEqual(notes.map((n) => n.file), [...tiny.categories.map((c) => c.thumbnail), ...tiny.images.map((i) => i.file)]);
  assert.deepEqual(notes.map((n) => n.title), [...tiny.categories.map((c) => c.name), ...tiny.images.map((i) => i.title)]);
});

test('pictures: 1200×800 facades that differ by title, 160×120 thumbnails in their category’s map colour', () => {
  const root = temporaryDir();
  writeCatalogueMedia(tiny, root);
  const categories = [...tiny.categories].sort((a, b) => a.id - b.id);
  categories.forEach((c, rank) => {
    const png = decodePng(fs.readFileSync(path.join(root, c.thumbnail)));
    assert.deepEqual([png.width, png.height], [160, 120], c.thumbnail);
    assert.equal(png.colourAt(0, 0), CATEGORY_PALETTE[rank]!.toLowerCase(), c.name);
  });
  const photos = tiny.images.slice(0, 5).map((i) => ({ title: i.title, png: decodePng(fs.readFileSync(path.join(root, i.file))) }));
  for (const { title, png } of photos) {
    assert.deepEqual([png.width, png.height], [1200, 800], title);
    // The title band: dark, with light letters in it.
    const band = new Set(Array.from({ length: 600 }, (_, x) => png.colourAt(40 + x, 40)));
    assert.ok(band.size >= 2, `${title}: no lettering`);
    assert.ok(png.colours >= 8, `${title}: ${png.colours} colours`);
  }
  assert.equal(new Set(photos.map((p) => p.png.hash)).size, photos.length, 'different titles, different pictures');
  fs.rmSync(root, { recursive: true, force: true });
});

test('scale 1 is the real catalogue’s size (±10%)', () => {
  const targets = { features: 4000, images: 3000, documents: 1060, media: 60, authors: 40 };
  for (const [list, target] of Object.entries(targets)) {
    const n = scale1[list as keyof typeof targets].length;
    assert.ok(n >= target * 0.9 && n <= target * 1.1, `${list}: ${n} records, want about ${target}`);
  }
  assert.ok(scale1.categories.length >= 15 && scale1.categories.length <= 25, `${scale1.categories.length} categories`);
  assert.ok(scale1.sites.length >= 5, `${scale1.sites.length} sites`);
});

test('counts scale linearly, with at least a few of each kind at a tiny scale', () => {
  for (const list of LISTS) assert.ok(tiny[list].length >= 3, `${list}: ${tiny[list].length} at scale 0.01`);
  assert.ok(tiny.features.length <= 60, `${tiny.features.length} features at scale 0.01`);
  const c = generateDemoCatalogue({ scale: 0.05, seed: 2 });
  assert.ok(Math.abs(c.features.length - 200) <= 20, `${c.features.length} features at scale 0.05`);
  assert.ok(Math.abs(c.images.length - 150) <= 15, `${c.images.length} images at scale 0.05`);
});

// How long it takes is for npm run bench (the catalogue it imports), not for a test on a shared machine.
test('bad options are refused', () => {
  for (const scale of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => generateDemoCatalogue({ scale, seed: 1 }), RangeError, `scale ${scale}`);
  }
  assert.throws(() => generateDemoCatalogue({ scale: 1, seed: Number.NaN }), RangeError);
});

test('the catalogue passes the project’s validator, already in normal form', () => {
  for (const c of [scale1, tiny, generateDemoCatalogue({ scale: 0.05, seed: 99 })]) {
    const result = validateCatalogue(JSON.parse(JSON.stringify(c)));
    assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.problems.slice(0, 5)));
    assert.equal(JSON.stringify(result.catalogue), JSON.stringify(c));
  }
});

test('every record has exactly the normalised keys, in order', () => {
  for (const c of [scale1, tiny]) {
    assert.deepEqual(Object.keys(c), ['format', ...LISTS]);
    assert.equal(c.format, 'heritage-catalogue/1');
    for (const list of LISTS) for (const record of c[list]) assert.deepEqual(Object.keys(record), KEYS[list], `${list} ${record.id}`);
    for (const f of c.features) assert.deepEqual(Object.keys(f.geometry), ['type', 'coordinates']);
  }
});

test('ids are positive, unique, ascending with gaps, and every reference resolves', () => {
  for (const c of [scale1, tiny]) {
    for (const list of LISTS) {
      const ids = c[list].map((r) => r.id);
      assert.ok(ids.every((id, i) => Number.isInteger(id) && id > 0 && (i === 0 || id > (ids[i - 1] as number))), `${list} ascending`);
    }
    for (const list of ['features', 'images', 'documents'] as const) {
      const ids = c[list].map((r) => r.id);
      assert.ok(ids.some((id, i) => i > 0 && id > (ids[i - 1] as number) + 1), `${list} has gaps`);
    }
    const has = (list: (typeof LISTS)[number]) => new Set(c[list].map((r) => r.id));
    const [features, authors, categories, sites] = [has('features'), has('authors'), has('categories'), has('sites')];
    for (const f of c.features) {
      if (f.site !== null) assert.ok(sites.has(f.site));
      for (const id of f.categories) assert.ok(categories.has(id));
      assert.equal(new Set(f.categories).size, f.categories.length, `feature ${f.id} repeats a category`);
      assert.ok(f.categories.length <= 3 && f.tags.length <= 4);
    }
    for (const r of [...c.images, ...c.documents, ...c.media]) assert.ok(features.has(r.feature) && authors.has(r.author));
    for (const s of c.sites) assert.ok(c.features.filter((f) => f.site === s.id).length >= 2, `site ${s.name} is shared`);
  }
});

test('geometry: closed MultiPolygons of building-sized rings around Whitechapel, at full precision', () => {
  let precise = 0;
  let total = 0;
  for (const f of scale1.features) {
    assert.equal(f.geometry.type, 'MultiPolygon');
    assert.ok(f.geometry.coordinates.length >= 1);
    for (const polygon of f.geometry.coordinates) {
      for (const ring of polygon) {
        assert.ok(ring.length >= 4, `feature ${f.id}: ring of ${ring.length}`);
        const first = ring[0] as Position;
        const last = ring[ring.length - 1] as Position;
        assert.ok(first[0] === last[0] && first[1] === last[1], `feature ${f.id}: ring not closed`);
        for (const p of ring) {
          assert.equal(p.length, 2);
          const [lon, lat] = p;
          assert.ok(lon > -0.1 && lon < -0.03 && lat > 51.5 && lat < 51.535, `feature ${f.id}: ${lon},${lat} is not in Whitechapel`);
          total++;
          if (decimals(lon) >= 14 || decimals(lat) >= 14) precise++;
        }
      }
    }
    if (f.feature_type === 'WHITECHAPEL_BUILDING') {
      const lons = positions(f).map((p) => p[0]);
      const lats = positions(f).map((p) => p[1]);
      const w = (Math.max(...lons) - Math.min(...lons)) * 69_300;
      const h = (Math.max(...lats) - Math.min(...lats)) * 111_320;
      assert.ok(w > 1 && h > 1 && w < 120 && h < 120, `feature ${f.id} is ${Math.round(w)}m × ${Math.round(h)}m`);
    }
  }
  assert.ok(precise > total * 0.8, `${precise} of ${total} positions have 14+ decimals`);
  const courtyards = scale1.features.filter((f) => f.geometry.coordinates.some((p) => p.length > 1)).length;
  const multi = scale1.features.filter((f) => f.geometry.coordinates.length > 1).length;
  assert.ok(courtyards >= 20 && courtyards < 1000, `${courtyards} features with inner rings`);
  assert.ok(multi >= 20 && multi < 1000, `${multi} multi-part features`);
});

test('features look like Whitechapel: types, streets, numbers, postcodes, addresses, sites', () => {
  const byType = new Map<string, number>();
  for (const f of scale1.features) byType.set(f.feature_type, (byType.get(f.feature_type) ?? 0) + 1);
  assert.ok((byType.get('WHITECHAPEL_BUILDING') ?? 0) > scale1.features.length * 0.8);
  assert.ok((byType.get('GREATER_WHITECHAPEL') ?? 0) >= 20 && (byType.get('PLACE') ?? 0) >= 20);
  const streets = new Set(scale1.features.map((f) => f.street));
  for (const street of ['Whitechapel Road', 'Whitechapel High Street', 'Commercial Road', 'Commercial Street', 'Osborn Street', 'Brick Lane',
    'Fieldgate Street', 'Fashion Street', 'Wentworth Street', 'Old Montague Street', 'Vallance Road', 'New Road', 'Mulberry Street',
    'Plumbers Row', 'Greatorex Street', 'Hanbury Street', 'Princelet Street', 'Fournier Street', 'Settles Street', 'Adler Street',
    'Cannon Street Road', 'Mile End Road', 'Cambridge Heath Road', 'Durward Street', 'Buxton Street', 'Chicksand Street', 'Toynbee Street',
    'Gunthorpe Street', 'Leman Street', 'Alie Street', 'Goulston Street', 'Middlesex Street', 'Black Lion Yard']) {
    assert.ok(streets.has(street), street);
  }
  const buildings = scale1.features.filter((f) => f.feature_type === 'WHITECHAPEL_BUILDING');
  for (const f of buildings) {
    assert.match(f.postcode, /^E[12] \d[A-Z]{2}$/, `feature ${f.id}`);
    assert.ok(f.street !== null && f.street !== '');
    const lead = f.b_number ?? f.b_name;
    assert.equal(f.address, f.b_number !== null ? `${lead} ${f.street}, London ${f.postcode}` : `${lead}, ${f.street}, London ${f.postcode}`);
    assert.ok(f.current === null || (Number.isInteger(f.current) && f.current >= 1650 && f.current <= 2015));
    assert.ok(f.tags.every((t) => t !== '' && t === t.toLowerCase()));
  }
  assert.ok(buildings.some((f) => /^\d+-\d+$/.test(f.b_number ?? '')), 'a number range');
  assert.ok(buildings.some((f) => f.current === null) && buildings.some((f) => f.current !== null));
  assert.ok(buildings.filter((f) => f.site !== null).length < buildings.length * 0.1, 'most features have no site');
  assert.ok(scale1.sites.some((s) => s.name === 'The Royal London Hospital'));
  assert.ok(buildings.some((f) => f.categories.length === 0) && buildings.some((f) => f.categories.length >= 2));
  assert.ok(buildings.some((f) => f.tags.length === 0) && buildings.some((f) => f.tags.length >= 3));
});

test('search_str is the default almost everywhere, and richer for a few', () => {
  const rich = scale1.features.filter((f) => f.search_str !== defaultSearchStr(f));
  assert.ok(rich.length >= 1 && rich.length < scale1.features.length * 0.05, `${rich.length} hand-made search strings`);
  for (const f of rich) assert.ok(f.search_str.startsWith(`${defaultSearchStr(f)} `), f.search_str);
});

test('categories and authors', () => {
  for (const c of scale1.categories) {
    assert.ok(c.name !== '' && typeof c.description === 'string');
    assert.match(c.thumbnail, /^categories\/[^/]+\.png$/);
  }
  assert.ok(scale1.categories.some((c) => c.description === '') && scale1.categories.some((c) => c.description !== ''));
  assert.ok(scale1.categories.some((c) => c.thumbnail.includes(' ')), 'a thumbnail with a space');
  const usernames = scale1.authors.map((a) => a.username);
  assert.equal(new Set(usernames).size, usernames.length);
  assert.ok(usernames.every((u) => u.trim() === u && u !== ''));
  assert.ok(usernames.includes('surveyoflondon') && usernames.some((u) => /[^\x00-\x7f]/.test(u)));
});

test('images: real-looking uploads on buildings and places only', () => {
  const features = new Map(scale1.features.map((f) => [f.id, f]));
  const perFeature = new Map<number, number>();
  for (const i of scale1.images) {
    assert.ok(i.file.startsWith(`uploads/features/${i.feature}/`) && fileName(i.file) !== '', i.file);
    assert.ok(['WHITECHAPEL_BUILDING', 'PLACE'].includes((features.get(i.feature) as Feature).feature_type));
    assert.ok(i.created === null || /^201[6-9]-\d\d-\d\d$/.test(i.created), String(i.created));
    assert.ok(i.title !== '');
    perFeature.set(i.feature, (perFeature.get(i.feature) ?? 0) + 1);
  }
  assert.equal(new Set(scale1.images.map((i) => i.file)).size, scale1.images.length, 'file paths are unique');
  assert.ok(perFeature.size < scale1.features.length / 2, 'most features have no image');
  assert.ok([...perFeature.values()].some((n) => n >= 5), 'some feature has several images');
  assert.ok(scale1.images.some((i) => i.description === '') && scale1.images.some((i) => i.description.includes('\n')));
  assert.ok(scale1.images.some((i) => i.copyright) && scale1.images.some((i) => !i.copyright));
  assert.ok(scale1.images.some((i) => i.created === null));
  const names = scale1.images.map((i) => fileName(i.file));
  for (const expected of ['Osborn St 1975 (GLC).jpg', "St Mary's #2.jpg", 'Cafè & shop.jpg', '100% pure.jpg', 'Łódź émigrés.png']) {
    assert.ok(names.includes(expected), expected);
  }
});

test('documents: HTML histories with matching footnotes and edit dates', () => {
  let edited_before = 0;
  for (const d of scale1.documents) {
    assert.match(d.body, /^<p>.*<\/p>$/s);
    assert.match(d.created, /^\d{4}-\d\d-\d\d$/);
    assert.match(d.last_edited, /^\d{4}-\d\d-\d\d$/);
    if (d.last_edited < d.created) edited_before++;
    const definitions = [...d.body.matchAll(/<p>\[\^(\d+)\]: /g)].map((m) => Number(m[1]));
    const markers = new Set([...d.body.matchAll(/\[\^(\d+)\](?!:)/g)].map((m) => Number(m[1])));
    assert.deepEqual(definitions, definitions.map((_, i) => i + 1), `document ${d.id}: footnotes numbered 1..n`);
    assert.deepEqual([...markers].sort((a, b) => a - b), definitions, `document ${d.id}: every marker has its footnote`);
    assert.ok(!/&(?!amp;|lt;|gt;|quot;)/.test(d.body), `document ${d.id}: unescaped &`);
  }
  assert.ok(edited_before > 0 && edited_before < scale1.documents.length * 0.2, `${edited_before} edited before created`);
  const all = scale1.documents.map((d) => d.body).join('');
  for (const markup of ['<strong>', '<em>', '<a href="https://']) assert.ok(all.includes(markup), markup);
  assert.ok(scale1.documents.filter((d) => d.body.includes('[^1]')).length > scale1.documents.length / 2);
});

test('media: YouTube and Vimeo links', () => {
  for (const m of scale1.media) {
    assert.match(m.url, /^https:\/\/(www\.youtube\.com\/watch\?v=[A-Za-z0-9_-]{11}|vimeo\.com\/\d+)$/);
    assert.ok(m.title !== '');
  }
  assert.ok(scale1.media.some((m) => m.url.includes('youtube')) && scale1.media.some((m) => m.url.includes('vimeo')));
});

test('a few percent of attached records are unpublished', () => {
  for (const list of [scale1.images, scale1.documents, scale1.media]) {
    const hidden = list.filter((r) => !r.published).length;
    assert.ok(hidden >= 1 && hidden <= list.length * 0.1, `${hidden} of ${list.length}`);
  }
});

test('nothing is attached to GREATER_WHITECHAPEL features', () => {
  const areas = new Set(scale1.features.filter((f) => f.feature_type === 'GREATER_WHITECHAPEL').map((f) => f.id));
  for (const r of [...scale1.images, ...scale1.documents, ...scale1.media]) assert.ok(!areas.has(r.feature));
});

test('both scale 1 and scale 0.01 contain every awkward case', () => {
  assertAwkward(scale1);
  assertAwkward(tiny);
  assertAwkward(generateDemoCatalogue({ scale: 0.05, seed: 12345 }));
});
