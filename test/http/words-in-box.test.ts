// A text query within a box is answered by either index driving (read-plans.ts drivingIndex):
// a small box's footprints with each one's text checked, or a rare word's matches with each
// one's footprint checked. Either way the answer is the text query's own answer (the text
// index alone) narrowed to the footprints meeting the box, computed here from the squares'
// corners; on a grid of more footprints than the box may drive through, with words that
// SQLite's FTS5 splits or folds otherwise than JavaScript.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Catalogue, Feature } from '../../src/catalogue/format.js';
import { FEW_BOX_CANDIDATES } from '../../src/store/read-plans.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { startTestApp, type TestApp } from '../support/in-process.js';

// Enough cells that the whole grid holds more footprints than a box may drive through.
const SIDE = Math.ceil(Math.sqrt(FEW_BOX_CANDIDATES + 500));
const STEP = 0.0002;
const SIZE = 0.0001;
const FIRST_ID = 10_000;
const cellOf = (row: number, column: number) => FIRST_ID + row * SIDE + column;

/** Names of some cells within the small box below, each again on a cell outside it. */
const NAMES: [row: number, column: number, name: string][] = [
  [1, 1, 'Q\u19b0street'], // FTS5 splits at U+19B0 (a letter to JavaScript): "street" is a word there
  [1, 2, 'Bjørn Yard'],
  [2, 1, 'ΟΔΟΣ'], // folded "οδος"; FTS5 folds ς to σ
  [2, 2, 'Chapel Street Corner'],
];
const NAMED: Record<number, string> = Object.fromEntries(NAMES.flatMap(([row, column, name]) => [[cellOf(row, column), name], [cellOf(row + 20, column + 20), name]]));

function gridFeature(row: number, column: number): Feature {
  const id = cellOf(row, column);
  const [x, y] = [1 + column * STEP, 52 + row * STEP];
  const named = NAMED[id];
  return {
    id, feature_type: 'WHITECHAPEL_BUILDING', b_number: `${id}`, b_name: named ?? (id % 97 === 0 ? 'Chapel House' : null),
    // The named cells have no street, so that their names alone decide a text query.
    street: named ? null : 'Grid Street', postcode: 'E1 1AA', address: `${id} Grid`, current: null, site: null,
    categories: [], tags: [], search_str: `${id} Grid`,
    geometry: { type: 'MultiPolygon', coordinates: [[[[x, y], [x + SIZE, y], [x + SIZE, y + SIZE], [x, y + SIZE], [x, y]]]] },
  };
}

function gridCatalogue(): Catalogue {
  const base = buildTestCatalogue();
  const grid = Array.from({ length: SIDE * SIDE }, (_, i) => gridFeature(Math.floor(i / SIDE), i % SIDE));
  const image = (id: number, feature: number, title: string) => ({
    id, feature, author: base.authors[0]!.id, title, file: `uploads/${id}.jpg`, description: '', copyright: false, created: '2018-01-01', published: true,
  });
  return {
    ...base,
    features: [...base.features, ...grid],
    images: [
      ...base.images,
      ...grid.filter((f) => f.id % 7 === 0).map((f, i) => image(50_000 + i, f.id, i % 50 === 0 ? 'Chapel front' : 'Street front')),
      image(60_001, cellOf(1, 1), 'Q\u19b0street view'),
      image(60_002, cellOf(1, 2), 'Søren yard'),
      image(60_003, cellOf(21, 22), 'Søren yard'),
    ],
  };
}

const catalogue = gridCatalogue();
let t: TestApp;
before(async () => {
  t = await startTestApp({ catalogue });
});
after(() => t.close());

type Box = [number, number, number, number];
const SMALL: Box = [1 + 0.5 * STEP, 52 + 0.5 * STEP, 1 + 3.2 * STEP, 52 + 3.2 * STEP]; // cells 1–3 across, edges cut
// All but the last five rows: still more footprints than a box may drive through, and some matches outside.
const MOST: Box = [0.9, 51.9, 1 + SIDE * STEP, 52 + (SIDE - 5.5) * STEP];

/** Squares: meeting the box is meeting the square's corners' box. */
function meets(feature: Feature, [x1, y1, x2, y2]: Box): boolean {
  const points = feature.geometry.coordinates.flat(2);
  const xs = points.map((p) => p[0]!);
  const ys = points.map((p) => p[1]!);
  return Math.max(...xs) >= x1 && Math.min(...xs) <= x2 && Math.max(...ys) >= y1 && Math.min(...ys) <= y2;
}

const featureById = new Map(catalogue.features.map((f) => [f.id, f]));
const featureOf = (collection: string, id: number) =>
  featureById.get(collection === 'features' ? id : catalogue.images.find((i) => i.id === id)!.feature)!;

/** Every id of a list, its pages followed to the end, and its count. */
async function walk(collection: string, query: string): Promise<{ ids: number[]; count: number }> {
  const ids: number[] = [];
  let count = -1;
  for (let page = 1; ; page++) {
    const answer = await t.request(`/api/v1/${collection}/?${query}&page_size=100&page=${page}`);
    assert.equal(answer.status, 200, `${collection}/?${query}: ${answer.text}`);
    const body = answer.json();
    count = body.count;
    const results = collection === 'features' ? body.results.features : body.results;
    ids.push(...results.map((r: { id: number }) => r.id));
    if (!body.next) return { ids, count };
  }
}

describe('words within a box: the text query narrowed to the box, whichever index drives', () => {
  const cases: [string, string, Box, string][] = [
    ['features', 'street', SMALL, 'a small box drives: each footprint\'s text checked, FTS5 deciding Q\u19b0street'],
    ['features', 'bj', SMALL, 'a word found in a text beyond ASCII'],
    ['features', 'οδος', SMALL, 'a word beyond ASCII'],
    ['features', 'street chapel', SMALL, 'two words'],
    ['features', 'yard', SMALL, 'a word after one beyond ASCII'],
    ['features', 'chapel', MOST, 'a rare word over most of the grid: its matches drive, each footprint checked'],
    ['features', 'grid', MOST, 'a word in every cell over most of the grid: the box drives again'],
    ['images', 'street', SMALL, 'records: a small box'],
    ['images', 'søren', SMALL, 'records: a word beyond ASCII'],
    ['images', 'chapel', MOST, 'records: a rare word over most of the grid'],
  ];
  for (const [collection, q, box, why] of cases) {
    test(`${collection}/?q=${q}&bbox=… (${why})`, async () => {
      const words = await walk(collection, `q=${encodeURIComponent(q)}`);
      const expected = words.ids.filter((id) => meets(featureOf(collection, id), box));
      assert.ok(expected.length > 0 && expected.length < words.ids.length, `the box keeps some matches and not all: ${expected.length} of ${words.ids.length}`);
      const both = await walk(collection, `q=${encodeURIComponent(q)}&bbox=${box.join(',')}`);
      assert.deepEqual(both.ids, expected);
      assert.equal(both.count, expected.length);
      // The last page, read from the end, holds the last matches.
      const last = (await t.request(`/api/v1/${collection}/?q=${encodeURIComponent(q)}&bbox=${box.join(',')}&page=last&page_size=3`)).json();
      const lastIds = (collection === 'features' ? last.results.features : last.results).map((r: { id: number }) => r.id);
      assert.deepEqual(lastIds, expected.slice(Math.floor((expected.length - 1) / 3) * 3));
    });
  }

  test('the cases meet what they are named for', async () => {
    // Not vacuous: the small box finds the named cells by their words, the rare word is rare.
    const inSmall = (await walk('features', `bbox=${SMALL.join(',')}`)).ids;
    for (const [row, column] of NAMES) assert.ok(inSmall.includes(cellOf(row, column)), `cell ${row}, ${column} is in the small box`);
    const chapel = (await walk('features', 'q=chapel')).count;
    assert.ok(chapel > 0 && chapel < FEW_BOX_CANDIDATES, `"chapel" is rare: ${chapel}`);
  });
});
