// Every operator's SQL for both stores' dialects, written by hand, with its parameters
// (`$n` in both: SQLite's `?` come later, from toSqlite); and the refusals of toSql. On
// PostgreSQL text compares by code point (COLLATE "C") and CASEI folds with ICU's root
// locale, whatever the database's own (test/postgres/collation.test.ts runs them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Cql2Error } from '../../src/ogc/cql2/errors.js';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { toSql } from '../../src/ogc/cql2/to-sql.js';
import { POSTGRES_DIALECT as POSTGRES, SQLITE_DIALECT as SQLITE, binder, likeToGlob } from '../../src/store/dialect.js';
import { QUERYABLES, filterSql } from '../support/cql2-queryables.js';

const parser = createCql2TextParser();
const point = '{"type":"Point","coordinates":[-0.07,51.52]}';

const CASES: { filter: string; sqlite: [string, unknown[]]; postgres: [string, unknown[]] }[] = [
  { filter: "name = 'Toynbee Hall'", sqlite: ['f.name = $1', ['Toynbee Hall']], postgres: ['f.name COLLATE "C" = $1', ['Toynbee Hall']] },
  { filter: 'floors <> 3', sqlite: ['f.floors <> $1', [3]], postgres: ['f.floors <> $1', [3]] },
  { filter: 'height < 12.5', sqlite: ['f.height < $1', [12.5]], postgres: ['f.height < $1', [12.5]] },
  { filter: 'floors > 2', sqlite: ['f.floors > $1', [2]], postgres: ['f.floors > $1', [2]] },
  { filter: 'floors <= 2', sqlite: ['f.floors <= $1', [2]], postgres: ['f.floors <= $1', [2]] },
  { filter: "built >= DATE('1880-01-01')", sqlite: ['f.built >= $1', ['1880-01-01']], postgres: ['f.built >= $1', ['1880-01-01']] },
  { filter: "updated < TIMESTAMP('2020-05-01T12:00:00Z')", sqlite: ['f.updated < $1', ['2020-05-01T12:00:00Z']], postgres: ['f.updated < $1', ['2020-05-01T12:00:00Z']] },
  { filter: 'listed = TRUE', sqlite: ['f.listed = $1', [1]], postgres: ['f.listed = $1', [true]] },
  { filter: 'listed = false', sqlite: ['f.listed = $1', [0]], postgres: ['f.listed = $1', [false]] },
  { filter: 'name IS NULL', sqlite: ['f.name IS NULL', []], postgres: ['f.name IS NULL', []] },
  { filter: 'geometry IS NOT NULL', sqlite: ['NOT f.geometry IS NULL', []], postgres: ['NOT f.geom IS NULL', []] },
  { filter: "name LIKE 'Toyn%e_'", sqlite: ['f.name GLOB $1', ['Toyn*e?']], postgres: ['f.name LIKE $1', ['Toyn%e_']] },
  { filter: String.raw`name LIKE '100\% [*?]'`, sqlite: ['f.name GLOB $1', ['100% [[][*][?]]']], postgres: ['f.name LIKE $1', [String.raw`100\% [*?]`]] },
  { filter: "name NOT LIKE 'A%'", sqlite: ['NOT f.name GLOB $1', ['A*']], postgres: ['NOT f.name LIKE $1', ['A%']] },
  { filter: "CASEI(name) LIKE CASEI('a%')", sqlite: ['casefold(f.name) GLOB casefold($1)', ['a*']], postgres: ['lower(f.name COLLATE "und-x-icu") COLLATE "C" LIKE lower($1 COLLATE "und-x-icu") COLLATE "C"', ['a%']] },
  { filter: "CASEI(name) = CASEI('Straße')", sqlite: ['casefold(f.name) = casefold($1)', ['Straße']], postgres: ['lower(f.name COLLATE "und-x-icu") COLLATE "C" = lower($1 COLLATE "und-x-icu") COLLATE "C"', ['Straße']] },
  { filter: 'floors BETWEEN 2 AND 4', sqlite: ['f.floors BETWEEN $1 AND $2', [2, 4]], postgres: ['f.floors BETWEEN $1 AND $2', [2, 4]] },
  { filter: 'height NOT BETWEEN 2 AND 4.5', sqlite: ['NOT f.height BETWEEN $1 AND $2', [2, 4.5]], postgres: ['NOT f.height BETWEEN $1 AND $2', [2, 4.5]] },
  { filter: "name IN ('a', 'b')", sqlite: ['f.name IN ($1, $2)', ['a', 'b']], postgres: ['f.name IN ($1, $2)', ['a', 'b']] },
  { filter: 'floors NOT IN (1, 2, 3)', sqlite: ['NOT f.floors IN ($1, $2, $3)', [1, 2, 3]], postgres: ['NOT f.floors IN ($1, $2, $3)', [1, 2, 3]] },
  { filter: "CASEI(name) IN (CASEI('A'))", sqlite: ['casefold(f.name) IN (casefold($1))', ['A']], postgres: ['lower(f.name COLLATE "und-x-icu") COLLATE "C" IN (lower($1 COLLATE "und-x-icu") COLLATE "C")', ['A']] },
  {
    filter: 'S_INTERSECTS(geometry, POINT(-0.07 51.52))',
    sqlite: [
      '(f.id IN (SELECT id FROM features_rtree WHERE max_x >= $1 AND min_x <= $2 AND max_y >= $3 AND min_y <= $4) AND intersects_geometry(f.geometry, $5))',
      [-0.07, -0.07, 51.52, 51.52, point],
    ],
    postgres: ['ST_Intersects(f.geom, ST_SetSRID(ST_GeomFromGeoJSON($1), 4326))', [point]],
  },
  {
    filter: 'floors = 1 AND S_INTERSECTS(BBOX(0, 1, 2, 3), geometry) AND name = \'x\'',
    sqlite: [
      'f.floors = $1 AND f.id IN (SELECT r.id FROM features_rtree r WHERE r.min_x >= $2 AND r.max_x <= $3 AND r.min_y >= $4 AND r.max_y <= $5 UNION ALL '
        + 'SELECT r.id FROM features_rtree r JOIN features x ON x.id = r.id WHERE r.max_x >= $6 AND r.min_x <= $7 AND r.max_y >= $8 AND r.min_y <= $9 '
        + 'AND NOT (r.min_x >= $10 AND r.max_x <= $11 AND r.min_y >= $12 AND r.max_y <= $13) AND intersects_box(x.outline, $14, $15, $16, $17)) AND f.name = $18',
      [1, 0, 2, 1, 3, 0, 2, 1, 3, 0, 2, 1, 3, 0, 1, 2, 3, 'x'],
    ],
    postgres: ['f.floors = $1 AND ST_Intersects(f.geom, ST_MakeEnvelope($2, $3, $4, $5, 4326)) AND f.name COLLATE "C" = $6', [1, 0, 1, 2, 3, 'x']],
  },
  {
    filter: 'floors = 1 OR NOT (floors = 2 AND height > 3) OR (listed = TRUE AND floors = 4)',
    sqlite: ['(f.floors = $1 OR NOT (f.floors = $2 AND f.height > $3) OR (f.listed = $4 AND f.floors = $5))', [1, 2, 3, 1, 4]],
    postgres: ['(f.floors = $1 OR NOT (f.floors = $2 AND f.height > $3) OR (f.listed = $4 AND f.floors = $5))', [1, 2, 3, true, 4]],
  },
  { filter: 'NOT (NOT floors = 1)', sqlite: ['NOT (NOT f.floors = $1)', [1]], postgres: ['NOT (NOT f.floors = $1)', [1]] },
  { filter: 'TRUE AND NOT FALSE', sqlite: ['TRUE AND NOT FALSE', []], postgres: ['TRUE AND NOT FALSE', []] },
  // Literals no property types are typed in SQL: PostgreSQL would compare them as text, or fail.
  { filter: '2 < 10', sqlite: ['CAST($1 AS DOUBLE PRECISION) < CAST($2 AS DOUBLE PRECISION)', [2, 10]], postgres: ['CAST($1 AS DOUBLE PRECISION) < CAST($2 AS DOUBLE PRECISION)', [2, 10]] },
  { filter: "'a' IS NULL", sqlite: ['CAST($1 AS TEXT) IS NULL', ['a']], postgres: ['CAST($1 AS TEXT) IS NULL', ['a']] },
  { filter: 'TRUE IN (listed)', sqlite: ['CAST($1 AS BOOLEAN) IN (f.listed)', [1]], postgres: ['CAST($1 AS BOOLEAN) IN (f.listed)', [true]] },
  { filter: 'floors IN (1, 2)', sqlite: ['f.floors IN ($1, $2)', [1, 2]], postgres: ['f.floors IN ($1, $2)', [1, 2]] },
  { filter: '2 BETWEEN floors AND 4', sqlite: ['$1 BETWEEN f.floors AND $2', [2, 4]], postgres: ['$1 BETWEEN f.floors AND $2', [2, 4]] },
  { filter: "DATE('2020-01-01') = built", sqlite: ['$1 = f.built', ['2020-01-01']], postgres: ['$1 = f.built', ['2020-01-01']] },
];

test('every operator in SQL for SQLite and PostgreSQL, literals bound', () => {
  for (const { filter, sqlite, postgres } of CASES) {
    const tree = parser.parse(filter);
    const fromSqlite = filterSql(tree, SQLITE);
    const fromPostgres = filterSql(tree, POSTGRES);
    assert.deepEqual([fromSqlite.sql, fromSqlite.params], sqlite, filter);
    assert.deepEqual([fromPostgres.sql, fromPostgres.params], postgres, filter);
  }
});

test('placeholders go on from the parameters the query already has', () => {
  const { bind, params } = binder();
  const earlier = [bind('x'), bind('y'), bind('z')];
  const sql = toSql(parser.parse("name = 'a' AND S_INTERSECTS(geometry, POINT(1 2)) AND floors = 3"), QUERYABLES, POSTGRES, bind);
  assert.deepEqual(earlier, ['$1', '$2', '$3']);
  assert.equal(sql, 'f.name COLLATE "C" = $4 AND ST_Intersects(f.geom, ST_SetSRID(ST_GeomFromGeoJSON($5), 4326)) AND f.floors = $6');
  assert.deepEqual(params, ['x', 'y', 'z', 'a', '{"type":"Point","coordinates":[1,2]}', 3]);
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
  // Numbers an integer property cannot hold (PostgreSQL's integer), and numbers that are not finite.
  ['floors = 0.5', 'The filter compares the property "floors" (an integer) with 0.5, but it holds whole numbers from -2147483648 to 2147483647 only.'],
  ['floors = 1e999', 'The filter compares the property "floors" (an integer) with a number beyond 1.8e308, but it holds whole numbers from -2147483648 to 2147483647 only.'],
  ['floors >= -2147483649', 'The filter compares the property "floors" (an integer) with -2147483649, but it holds whole numbers from -2147483648 to 2147483647 only.'],
  ['2147483648 > floors', 'The filter compares the property "floors" (an integer) with 2147483648, but it holds whole numbers from -2147483648 to 2147483647 only.'],
  ['floors IN (1, 2.5)', 'The filter compares the property "floors" (an integer) with 2.5, but it holds whole numbers from -2147483648 to 2147483647 only.'],
  ['floors BETWEEN 0.5 AND 1e999', 'The filter compares the property "floors" (an integer) with 0.5, but it holds whole numbers from -2147483648 to 2147483647 only.'],
  ['height < 1e999', 'The filter holds a number beyond 1.8e308; numbers must be finite.'],
  ['-1e999 IS NULL', 'The filter holds a number beyond -1.8e308; numbers must be finite.'],
  ["floors = 'x' OR floors = 0.5", '"=" cannot compare the property "floors" (an integer) with a string (\'x\').'],
];

test('whole numbers in the stored range are taken at both ends', () => {
  const { params } = filterSql(parser.parse('floors BETWEEN -2147483648 AND 2147483647 AND floors <> 1e3'), POSTGRES);
  assert.deepEqual(params, [-2147483648, 2147483647, 1000]);
});

test('refused: unknown properties and mismatched types, named', () => {
  for (const [filter, message] of refusals) {
    assert.throws(() => filterSql(parser.parse(filter), SQLITE), (error: unknown) => {
      assert.ok(error instanceof Cql2Error, filter);
      assert.equal(error.message, message, filter);
      return true;
    });
  }
});
