// The SQL run on a real SQLite database: LIKE (via GLOB), CASEI, BETWEEN, IN, IS NULL and
// three-valued logic give the standard's answers, not SQLite's case-blind LIKE.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { toSql } from '../../src/ogc/cql2/to-sql.js';
import { QUERYABLES, SQLITE } from '../support/cql2-queryables.js';

const ROWS: [number, string | null, number | null, number][] = [
  [1, 'abc', 1, 1], [2, 'Abc', 2, 0], [3, 'ABC', 3, 1], [4, null, null, 0], [5, '100% sure', 4, 1],
  [6, '100 percent', 5, 0], [7, 'a*b', 2, 1], [8, 'a_b', 3, 0], [9, 'axb', null, 1], [10, 'a[b]', 6, 0],
];

function database(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE f (id INTEGER PRIMARY KEY, name TEXT, floors INTEGER, listed INTEGER, x REAL, geom TEXT)');
  const insert = db.prepare('INSERT INTO f (id, name, floors, listed, x, geom) VALUES (?, ?, ?, ?, ?, ?)');
  for (const [id, name, floors, listed] of ROWS) insert.run(id, name, floors, listed, id, JSON.stringify([id, id]));
  // The test's spatial check: a stored point inside the filter's BBOX.
  db.function('footprint_intersects', { deterministic: true }, (geom: unknown, literal: unknown) => {
    const [x, y] = JSON.parse(String(geom)) as number[];
    const { bbox } = JSON.parse(String(literal)) as { bbox: number[] };
    const [w = 0, s = 0, e = 0, n = 0] = bbox;
    return (x ?? 0) >= w && (x ?? 0) <= e && (y ?? 0) >= s && (y ?? 0) <= n ? 1 : 0;
  });
  return db;
}

const EXPECTED: [string, number[]][] = [
  ["name LIKE 'A%'", [2, 3]],
  ["name LIKE 'a%'", [1, 7, 8, 9, 10]],
  ["CASEI(name) LIKE CASEI('A%')", [1, 2, 3, 7, 8, 9, 10]],
  ["name LIKE 'a_b'", [7, 8, 9]],
  [String.raw`name LIKE 'a\_b'`, [8]],
  ["name LIKE 'a*b'", [7]],
  ["name LIKE 'a[b]'", [10]],
  [String.raw`name LIKE '100\%%'`, [5]],
  ["name LIKE '100%'", [5, 6]],
  ["name NOT LIKE 'A%'", [1, 5, 6, 7, 8, 9, 10]],
  ["name = 'abc'", [1]],
  ["CASEI(name) = CASEI('aBC')", [1, 2, 3]],
  ["CASEI(name) IN (CASEI('ABC'), 'axb')", [1, 2, 3, 9]],
  ['floors BETWEEN 2 AND 3', [2, 3, 7, 8]],
  ['floors NOT BETWEEN 2 AND 3', [1, 5, 6, 10]],
  ['floors IN (1, 6)', [1, 10]],
  ['floors NOT IN (1, 6)', [2, 3, 5, 6, 7, 8]],
  ['floors IS NULL', [4, 9]],
  ['floors IS NOT NULL AND name IS NOT NULL', [1, 2, 3, 5, 6, 7, 8, 10]],
  ['listed = TRUE', [1, 3, 5, 7, 9]],
  ['NOT (floors > 2)', [1, 2, 7]],
  ['floors > 2 OR name IS NULL', [3, 4, 5, 6, 8, 10]],
  ['S_INTERSECTS(geometry, BBOX(2, 2, 4.5, 4.5))', [2, 3, 4]],
  ['TRUE', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
];

test('SQLite answers each filter as CQL2 says (LIKE case-sensitive, NULLs unknown)', () => {
  const db = database();
  const parser = createCql2TextParser();
  const queryables = { ...QUERYABLES, name: { type: 'string' as const, sql: 'name' }, floors: { type: 'integer' as const, sql: 'floors' }, listed: { type: 'boolean' as const, sql: 'listed' }, geometry: { type: 'geometry' as const, sql: 'geom' } };
  for (const [filter, ids] of EXPECTED) {
    const { sql, params } = toSql(parser.parse(filter), queryables, SQLITE);
    const rows = db.prepare(`SELECT id FROM f WHERE ${sql} ORDER BY id`).pluck().all(...params);
    assert.deepEqual(rows, ids, `${filter} → ${sql}`);
  }
  db.close();
});
