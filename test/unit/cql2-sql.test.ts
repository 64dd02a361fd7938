// Every operator's SQL for both stores, written by hand, with its parameters; and the
// refusals of toSql (unknown property, types).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Cql2Error } from '../../src/ogc/cql2/errors.js';
import { likeToGlob, postgresDialect } from '../../src/ogc/cql2/sql-dialect.js';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { toSql } from '../../src/ogc/cql2/to-sql.js';
import { POSTGRES, QUERYABLES, SQLITE } from '../support/cql2-queryables.js';

const parser = createCql2TextParser();
const point = '{"type":"Point","coordinates":[-0.07,51.52]}';

const CASES: { filter: string; sqlite: [string, unknown[]]; postgres: [string, unknown[]] }[] = [
  { filter: "name = 'Toynbee Hall'", sqlite: ['f.name = ?', ['Toynbee Hall']], postgres: ['f.name = $1', ['Toynbee Hall']] },
  { filter: 'floors <> 3', sqlite: ['f.floors <> ?', [3]], postgres: ['f.floors <> $1', [3]] },
  { filter: 'height < 12.5', sqlite: ['f.height < ?', [12.5]], postgres: ['f.height < $1', [12.5]] },
  { filter: 'floors > 2', sqlite: ['f.floors > ?', [2]], postgres: ['f.floors > $1', [2]] },
  { filter: 'floors <= 2', sqlite: ['f.floors <= ?', [2]], postgres: ['f.floors <= $1', [2]] },
  { filter: "built >= DATE('1880-01-01')", sqlite: ['f.built >= ?', ['1880-01-01']], postgres: ['f.built >= $1', ['1880-01-01']] },
  { filter: "updated < TIMESTAMP('2020-05-01T12:00:00Z')", sqlite: ['f.updated < ?', ['2020-05-01T12:00:00Z']], postgres: ['f.updated < $1', ['2020-05-01T12:00:00Z']] },
  { filter: 'listed = TRUE', sqlite: ['f.listed = ?', [1]], postgres: ['f.listed = $1', [true]] },
  { filter: 'listed = false', sqlite: ['f.listed = ?', [0]], postgres: ['f.listed = $1', [false]] },
  { filter: 'name IS NULL', sqlite: ['f.name IS NULL', []], postgres: ['f.name IS NULL', []] },
  { filter: 'geometry IS NOT NULL', sqlite: ['NOT f.geom IS NULL', []], postgres: ['NOT f.geom IS NULL', []] },
  { filter: "name LIKE 'Toyn%e_'", sqlite: ['f.name GLOB ?', ['Toyn*e?']], postgres: ['f.name LIKE $1', ['Toyn%e_']] },
  { filter: String.raw`name LIKE '100\% [*?]'`, sqlite: ['f.name GLOB ?', ['100% [[][*][?]]']], postgres: ['f.name LIKE $1', [String.raw`100\% [*?]`]] },
  { filter: "name NOT LIKE 'A%'", sqlite: ['NOT f.name GLOB ?', ['A*']], postgres: ['NOT f.name LIKE $1', ['A%']] },
  { filter: "CASEI(name) LIKE CASEI('a%')", sqlite: ['lower(f.name) GLOB lower(?)', ['a*']], postgres: ['lower(f.name) LIKE lower($1)', ['a%']] },
  { filter: "CASEI(name) = CASEI('Straße')", sqlite: ['lower(f.name) = lower(?)', ['Straße']], postgres: ['lower(f.name) = lower($1)', ['Straße']] },
  { filter: 'floors BETWEEN 2 AND 4', sqlite: ['f.floors BETWEEN ? AND ?', [2, 4]], postgres: ['f.floors BETWEEN $1 AND $2', [2, 4]] },
  { filter: 'height NOT BETWEEN 2 AND 4.5', sqlite: ['NOT f.height BETWEEN ? AND ?', [2, 4.5]], postgres: ['NOT f.height BETWEEN $1 AND $2', [2, 4.5]] },
  { filter: "name IN ('a', 'b')", sqlite: ['f.name IN (?, ?)', ['a', 'b']], postgres: ['f.name IN ($1, $2)', ['a', 'b']] },
  { filter: 'floors NOT IN (1, 2, 3)', sqlite: ['NOT f.floors IN (?, ?, ?)', [1, 2, 3]], postgres: ['NOT f.floors IN ($1, $2, $3)', [1, 2, 3]] },
  { filter: "CASEI(name) IN (CASEI('A'))", sqlite: ['lower(f.name) IN (lower(?))', ['A']], postgres: ['lower(f.name) IN (lower($1))', ['A']] },
  {
    filter: 'S_INTERSECTS(geometry, POINT(-0.07 51.52))',
    sqlite: ['footprint_intersects(f.geom, ?)', [point]],
    postgres: ['ST_Intersects(f.geom, ST_GeomFromGeoJSON($1))', [point]],
  },
  {
    filter: 'floors = 1 AND S_INTERSECTS(BBOX(0, 1, 2, 3), geometry) AND name = \'x\'',
    sqlite: ['f.floors = ? AND footprint_intersects(f.geom, ?) AND f.name = ?', [1, '{"bbox":[0,1,2,3]}', 'x']],
    postgres: ['f.floors = $1 AND ST_Intersects(f.geom, ST_GeomFromGeoJSON($2)) AND f.name = $3', [1, '{"bbox":[0,1,2,3]}', 'x']],
  },
  {
    filter: 'floors = 1 OR NOT (floors = 2 AND height > 3) OR (listed = TRUE AND floors = 4)',
    sqlite: ['(f.floors = ? OR NOT (f.floors = ? AND f.height > ?) OR (f.listed = ? AND f.floors = ?))', [1, 2, 3, 1, 4]],
    postgres: ['(f.floors = $1 OR NOT (f.floors = $2 AND f.height > $3) OR (f.listed = $4 AND f.floors = $5))', [1, 2, 3, true, 4]],
  },
  { filter: 'NOT (NOT floors = 1)', sqlite: ['NOT (NOT f.floors = ?)', [1]], postgres: ['NOT (NOT f.floors = $1)', [1]] },
  { filter: 'TRUE AND NOT FALSE', sqlite: ['TRUE AND NOT FALSE', []], postgres: ['TRUE AND NOT FALSE', []] },
];

test('every operator in SQL for SQLite and PostgreSQL, literals bound', () => {
  for (const { filter, sqlite, postgres } of CASES) {
    const tree = parser.parse(filter);
    const fromSqlite = toSql(tree, QUERYABLES, SQLITE);
    const fromPostgres = toSql(tree, QUERYABLES, POSTGRES);
    assert.deepEqual([fromSqlite.sql, fromSqlite.params], sqlite, filter);
    assert.deepEqual([fromPostgres.sql, fromPostgres.params], postgres, filter);
  }
});

test('PostgreSQL placeholders start where the caller says', () => {
  const dialect = postgresDialect(POSTGRES.intersects, 4);
  const { sql, params } = toSql(parser.parse("name = 'a' AND S_INTERSECTS(geometry, POINT(1 2)) AND floors = 3"), QUERYABLES, dialect);
  assert.equal(sql, 'f.name = $4 AND ST_Intersects(f.geom, ST_GeomFromGeoJSON($5)) AND f.floors = $6');
  assert.deepEqual(params, ['a', '{"type":"Point","coordinates":[1,2]}', 3]);
});

test('GLOB translation: wildcards, escapes and GLOB\'s own special characters', () => {
  const table: [string, string][] = [
    ['%', '*'], ['_', '?'], [String.raw`\%\_`, '%_'], [String.raw`\\`, '\\'], ['a*b?c[d]e', 'a[*]b[?]c[[]d]e'],
    [String.raw`\*`, '[*]'], [String.raw`\a`, 'a'], ['é_', 'é?'],
  ];
  for (const [like, glob] of table) assert.equal(likeToGlob(like), glob, like);
});

const refusals: [string, string][] = [
  ["nom = 'a'", 'The filter names the property "nom", which is not a queryable; the queryables are "name", "floors", "height", "listed", "built", "updated" and "geometry".'],
  ["floors = 'three'", '"=" cannot compare the property "floors" (an integer) with a string (\'three\').'],
  ['name > 3', '">" cannot compare the property "name" (a string) with a number (3).'],
  ["built = TIMESTAMP('2020-01-01T00:00:00Z')", '"=" cannot compare the property "built" (a date) with a timestamp (TIMESTAMP(\'2020-01-01T00:00:00Z\')).'],
  ["floors LIKE '1%'", 'LIKE needs a string, but the property "floors" (an integer) is not one.'],
  ['CASEI(floors) = CASEI(name)', 'CASEI needs a string, but the property "floors" (an integer) is not one.'],
  ['S_INTERSECTS(name, POINT(1 2))', 'S_INTERSECTS needs a geometry, but the property "name" is a string.'],
  ['S_INTERSECTS(POINT(1 2), BBOX(0, 0, 3, 3))', 'S_INTERSECTS compares a geometry property with a POINT, POLYGON, MULTIPOLYGON or BBOX.'],
  ['geometry = 1', '"=" cannot compare the property "geometry" (a geometry); use S_INTERSECTS.'],
  ["name BETWEEN 'a' AND 'b'", 'BETWEEN compares numbers, but the property "name" (a string) is not a number.'],
  ["floors IN (1, '2')", 'IN cannot compare the property "floors" (an integer) with a string (\'2\').'],
  [String.raw`name LIKE 'a\\'`, String.raw`The LIKE pattern "a\\" ends with the escape character \; write \\ for a backslash.`],
  ['toString = 1', 'The filter names the property "toString", which is not a queryable; the queryables are "name", "floors", "height", "listed", "built", "updated" and "geometry".'],
];

test('refused: unknown properties and mismatched types, named', () => {
  for (const [filter, message] of refusals) {
    assert.throws(() => toSql(parser.parse(filter), QUERYABLES, SQLITE), (error: unknown) => {
      assert.ok(error instanceof Cql2Error, filter);
      assert.equal(error.message, message, filter);
      return true;
    });
  }
});
