// A record's change in words (src/editing/record-diff.ts), as tables of cases: each field's
// words, long text shortened around what changed, lists by what came and went, a removed
// record named from the first characters of its JSON, and a seal of a carried change file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogueRecord } from '../../src/catalogue/lists.js';
import { fieldChanges, labelFromJsonPrefix, pointCount, textChange, type Names } from '../../src/editing/record-diff.js';
import { changeFileText, fileName, sealHolds, sealOf } from '../../src/http/edit/change-form.js';
import { emptyChangeSet } from '../../src/changes/format.js';
import { buildTestCatalogue } from '../support/catalogue.js';

const NAMES: Names = (list, id) => ({ 'sites 1': 'The Royal London Hospital', 'sites 2': 'Toynbee Hall', 'categories 3': 'Pubs', 'categories 4': 'Industry & power', 'authors 2': 'surveyoflondon', 'features 1': 'The station' } as Record<string, string>)[`${list} ${id}`] ?? null;
const catalogue = buildTestCatalogue();
const feature = catalogue.features.find((f) => f.id === 1)!;
const image = catalogue.images.find((i) => i.id === 7)!;
const words = (list: 'features' | 'images', before: CatalogueRecord | null, after: CatalogueRecord | null) => fieldChanges(list, before, after, NAMES).map((c) => `${c.label}: ${c.text}`);

test('a feature\'s fields in words: references by name, kind, year, categories by what came and went, the footprint by its size', () => {
  const after = { ...feature, address: '7 Fournier Street', site: 2, categories: [3], feature_type: 'PLACE' as const, current: 1901, b_number: null, geometry: { type: 'MultiPolygon' as const, coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]]] as [number, number][][][] } };
  assert.deepEqual(words('features', feature, after), [
    'Kind: building in Whitechapel → place',
    'Number: 12-14 → (none)',
    'Address: 1 Osborn Street, London E1 6TD → 7 Fournier Street',
    'Year: (none) → 1901',
    'Site: The Royal London Hospital → Toynbee Hall',
    'Categories: removed Industry & power',
    'Footprint: changed (4 points)',
  ]);
  assert.deepEqual(words('features', feature, { ...feature, categories: [3, 4] }), ['Categories: reordered: Industry & power, Pubs → Pubs, Industry & power']);
  assert.deepEqual(words('features', feature, { ...feature, site: 9 }), ['Site: The Royal London Hospital → site 9 (not in the catalogue)']);
  assert.deepEqual(words('features', feature, feature), []);
  assert.deepEqual(words('features', feature, null), [], 'a removed record lists no field');
});

test('a new picture lists the fields it has, the licence and flags in words; a changed one only what changed', () => {
  assert.deepEqual(words('images', null, image), [
    'Building: The station', 'Credit: surveyoflondon', 'Title: Street front, 1975', 'File: uploads/features/1/Osborn St 1975 (GLC).jpg',
    'Description: First line. Second line.', 'Licence: the contributor keeps the copyright', 'Date: 2016-06-01', 'Published: yes',
  ]);
  assert.deepEqual(words('images', image, { ...image, copyright: false, published: false }), ['Licence: the contributor keeps the copyright → open licence', 'Published: yes → no']);
});

test('long text: shortened around what changed, with both lengths', () => {
  for (const [was, now, expected] of [
    ['The hall was built in 1884.', 'The hall was built in 1885.', 'changed (27 characters → 27 characters): “…in 1884.” → “…in 1885.”'],
    ['The hall was built in 1884 by Smith.', 'The hall was built in 1885 by Smith.', 'changed (36 characters → 36 characters): “…in 1884…” → “…in 1885…”'],
    ['Built.', 'Built. Rebuilt in 1950.', 'changed (6 characters → 23 characters): “… Rebuilt in 1950.” added'],
    ['Built. Rebuilt in 1950.', 'Built.', 'changed (23 characters → 6 characters): “… Rebuilt in 1950.” taken out'],
    ['a', 'b', 'changed (1 character → 1 character): “a” → “b”'],
    [`${'x '.repeat(50)}A ${'y '.repeat(100)}`, `${'x '.repeat(50)}B ${'y '.repeat(100)}`, 'changed (302 characters → 302 characters): “…x A…” → “…x B…”'],
    ['', 'z'.repeat(100), `changed (0 characters → 100 characters): “${'z'.repeat(80)}…” added`],
  ] as const) assert.equal(textChange(was, now), expected, `${was} → ${now}`);
});

test('a removed record named from the first characters of its JSON; a footprint\'s points counted', () => {
  const json = JSON.stringify(feature);
  assert.equal(labelFromJsonPrefix('features', json.slice(0, 200)), 'Former Whitechapel electricity-generating station');
  assert.equal(labelFromJsonPrefix('features', JSON.stringify({ ...feature, b_name: '' })), '1 Osborn Street, London E1 6TD', 'no name: its address');
  assert.equal(labelFromJsonPrefix('images', JSON.stringify({ ...image, title: 'A "quoted" \\ title' })), 'A "quoted" \\ title');
  assert.equal(labelFromJsonPrefix('images', JSON.stringify(image).slice(0, 20)), null, 'cut before its title');
  assert.equal(pointCount(feature.geometry), 13, 'two rings of 4 and a square of 5');
  assert.equal(pointCount(null), 0);
});

test('a carried change file: normalised text, its seal holds for its session only, names kept short', () => {
  const changes = emptyChangeSet();
  changes.sites.put.push({ id: 2, name: 'Toynbee Hall' });
  changes.media.remove.push(6);
  const text = changeFileText(changes);
  assert.equal(text, '{"format":"heritage-changes/1","sites":{"put":[{"id":2,"name":"Toynbee Hall"}]},"media":{"remove":[6]}}');
  const carried = { name: 'a.json', seen: 'digest', text };
  const seal = sealOf('csrf-one', carried);
  assert.ok(sealHolds('csrf-one', carried, seal));
  for (const [csrf, other] of [['csrf-two', carried], ['csrf-one', { ...carried, text: text.replace('Hall', 'Hill') }], ['csrf-one', { ...carried, seen: 'other' }], ['csrf-one', { ...carried, name: 'b.json' }]] as const) {
    assert.ok(!sealHolds(csrf, other, seal), JSON.stringify(other));
  }
  assert.ok(!sealHolds('csrf-one', carried, ''));
  assert.equal(fileName('C:\\Users\\ed\\changes\u202e.json'), 'changes.json');
  assert.equal(fileName(undefined), 'pasted text');
  assert.equal([...fileName('x'.repeat(300))].length, 100);
});
