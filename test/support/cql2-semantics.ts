// One small table and the rows each filter must find, run on SQLite (test/unit) and on
// PostgreSQL (test/postgres): the standard's semantics, not the database's defaults.

/** id, name, floors, listed; the footprint of row n is a small square around (n, n) (squareAround). */
export const CQL2_ROWS: [number, string | null, number | null, number][] = [
  [1, 'abc', 1, 1], [2, 'Abc', 2, 0], [3, 'ABC', 3, 1], [4, null, null, 0], [5, '100% sure', 4, 1],
  [6, '100 percent', 5, 0], [7, 'a*b', 2, 1], [8, 'a_b', 3, 0], [9, 'axb', null, 1], [10, 'a[b]', 6, 0],
];

/** BBOX(2, 2, 4.5, 4.5) meets the squares of rows 2 to 4; a polygon touching a square's corner meets it. */
export const CQL2_SEMANTICS: [string, number[]][] = [
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
  ['S_INTERSECTS(geometry, BBOX(2, 2, 0, 4.5, 4.5, 10))', [2, 3, 4]],
  ['NOT S_INTERSECTS(geometry, BBOX(2, 2, 4.5, 4.5))', [1, 5, 6, 7, 8, 9, 10]],
  ['NOT S_INTERSECTS(geometry, POINT(3.05 2.95)) AND floors = 3', [8]],
  ['S_INTERSECTS(geometry, POINT(3.05 2.95))', [3]],
  ['S_INTERSECTS(geometry, POINT(3.5 3.5))', []],
  ['S_INTERSECTS(geometry, POLYGON((1.95 1.95, 3.5 1.95, 3.5 3.5, 1.95 3.5, 1.95 1.95)))', [2, 3]],
  ['S_INTERSECTS(geometry, MULTIPOLYGON(((0 0, 1.2 0, 1.2 1.2, 0 0)), ((6 6, 7 6, 7 7, 6 6))))', [1, 6, 7]],
  ["CASEI(name) = CASEI('ÀBC')", []],
  ['TRUE', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  // Literals compared with literals are typed as they are written, not as text ('2' < '10' is false).
  ['2 < 10', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ['10 BETWEEN 9 AND 10.5', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ["'b' > 'a' AND DATE('2020-01-02') > DATE('2020-01-01')", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ['1 IS NULL OR TRUE IS NULL', []],
  ['3 IN (floors, 6)', [3, 8]],
  ['2 BETWEEN floors AND 4', [1, 2, 7]],
  ['TRUE = listed', [1, 3, 5, 7, 9]],
];
