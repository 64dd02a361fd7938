import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ListName } from '../../src/catalogue/lists.js';
import { SQLITE_DIALECT } from '../../src/store/dialect.js';
import { exportSql } from '../../src/store/apply/export-rows.js';
import { WireColumns, recordColumns, recordFromRow } from '../../src/store/record-columns.js';

const square = { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]]] };

// Each record, the row a load writes for it, and that row as SQLite gives it back (booleans
// 0/1, categories through the dialect's aggregate): written out by hand, not derived.
const CASES: { list: ListName; record: object; row: object; stored: object }[] = [
  { list: 'authors', record: { id: 1, username: 'ann' }, row: { id: 1, username: 'ann' }, stored: { id: 1, username: 'ann' } },
  {
    list: 'features',
    record: {
      id: 7, feature_type: 'PLACE', b_number: null, b_name: 'Hall', street: 'Fournier Street', postcode: 'E1 6TP',
      address: 'Hall, Fournier Street', current: 1850, site: 3, categories: [2, 1], tags: ['pub'], search_str: 'hall', geometry: square,
    },
    row: {
      id: 7, feature_type: 'PLACE', b_number: null, b_name: 'Hall', street: 'Fournier Street', postcode: 'E1 6TP',
      address: 'Hall, Fournier Street', current: 1850, site_id: 3, tags: '["pub"]', search_str: 'hall', geometry: JSON.stringify(square),
    },
    stored: {
      id: 7, feature_type: 'PLACE', b_number: null, b_name: 'Hall', street: 'Fournier Street', postcode: 'E1 6TP',
      address: 'Hall, Fournier Street', current: 1850, site: 3, categories: '2,1', tags: '["pub"]', search_str: 'hall', geometry: JSON.stringify(square),
    },
  },
  {
    list: 'images',
    record: { id: 4, feature: 7, author: 1, title: 'T', file: 'a.jpg', description: 'd', copyright: false, created: null, published: true },
    row: { id: 4, feature_id: 7, author_id: 1, title: 'T', file: 'a.jpg', description: 'd', copyright: false, created: null, published: true },
    stored: { id: 4, feature: 7, author: 1, title: 'T', file: 'a.jpg', description: 'd', copyright: 0, created: null, published: 1 },
  },
  {
    list: 'media',
    record: { id: 5, feature: 7, author: 1, title: 'M', url: 'https://example.org/v', published: false },
    row: { id: 5, feature_id: 7, author_id: 1, title: 'M', url: 'https://example.org/v', published: false },
    stored: { id: 5, feature: 7, author: 1, title: 'M', url: 'https://example.org/v', published: 0 },
  },
];

describe('a record ↔ its row, from the field declaration', () => {
  for (const { list, record, row, stored } of CASES) {
    test(`${list}: the row a load writes`, () => assert.deepEqual(recordColumns(list, Object(record)), row));
    // JSON text, not deepEqual: the export writes keys in this order, so the order is the answer.
    test(`${list}: the stored row read back is the record, keys in file order`, () =>
      assert.equal(JSON.stringify(recordFromRow(list, Object(stored))), JSON.stringify(record)));
  }

  test('a feature with no categories reads back an empty list (the aggregate gives null)', () => {
    const features = CASES.find((c) => c.list === 'features');
    assert.ok(features);
    assert.deepEqual(recordFromRow('features', { ...features.stored, categories: null }).categories, []);
  });
});

describe('column lists', () => {
  test('export reads a feature whole, each column named as its key', () =>
    assert.equal(
      exportSql('features', SQLITE_DIALECT),
      'SELECT features.id, features.feature_type, features.b_number, features.b_name, features.street, features.postcode, ' +
        'features.address, features.current, features.site_id AS site, ' +
        "(SELECT group_concat(category_id, ',' ORDER BY position) FROM feature_categories WHERE feature_id = features.id) AS categories, " +
        'features.tags, features.search_str, features.geometry FROM features WHERE id > $1 ORDER BY id LIMIT $2',
    ));

  const cases: [{ select(table: string, prefix?: string): string }, string, string, string][] = [
    [new WireColumns('features', 'listed'), 'f', '', 'f.id, f.feature_type, f.b_number, f.b_name, f.street, f.postcode, f.address, f.current'],
    [
      new WireColumns('features', 'nested'), 'f', 'f_',
      'f.id AS f_id, f.feature_type AS f_feature_type, f.b_number AS f_b_number, f.b_name AS f_b_name, f.street AS f_street, ' +
        'f.address AS f_address, f.tags AS f_tags, f.search_str AS f_search_str',
    ],
    [new WireColumns('images', 'record'), 'x', '', 'x.id, x.title, x.file, x.description, x.copyright, x.created'],
    [new WireColumns('documents', 'record'), 'x', '', 'x.id, x.title, x.body, x.created, x.last_edited'],
    [new WireColumns('media', 'record'), 'x', '', 'x.id, x.title, x.url'],
  ];
  for (const [columns, table, prefix, expected] of cases) test(expected, () => assert.equal(columns.select(table, prefix), expected));

  test('an image read back: its boolean decoded', () =>
    assert.deepEqual(
      new WireColumns('images', 'record').read({ id: 4, title: 'T', file: 'a.jpg', description: 'd', copyright: 1, created: '2016-01-02' }),
      { id: 4, title: 'T', file: 'a.jpg', description: 'd', copyright: true, created: '2016-01-02' },
    ));
  test('tags of a nested feature are parsed from their JSON text', () =>
    assert.deepEqual(new WireColumns('features', 'nested').read({ f_tags: '["a","b"]' }, 'f_').tags, ['a', 'b']));
});
