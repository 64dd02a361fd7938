// Invalid filters: where they fail and what was expected (text), the JSON path (JSON), and
// each bound at and one past its limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cql2Limits } from '../../src/ogc/cql2/bounds.js';
import { Cql2Error } from '../../src/ogc/cql2/errors.js';
import { createCql2Reader } from '../../src/ogc/cql2/filter.js';
import { parseCql2Json, readCql2Json } from '../../src/ogc/cql2/json-reader.js';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';

const parser = createCql2TextParser();

function refusal(read: () => unknown): Cql2Error {
  try {
    read();
  } catch (error) {
    if (error instanceof Cql2Error) return error;
    throw error;
  }
  assert.fail('accepted');
}

const TEXT_ERRORS: { filter: string; message: string; at: [number, number, number] }[] = [
  {
    filter: 'name = foo bar',
    message: 'The filter is invalid at line 1, column 12: expected "AND", "OR" or the end of the filter, but found "bar".',
    at: [1, 12, 11],
  },
  {
    filter: "name = 'a'\n  AND floors >",
    message: 'The filter is invalid at line 2, column 15: expected a value, but found the end of the filter.',
    at: [2, 15, 25],
  },
  {
    filter: 'name LIKE 5',
    message: 'The filter is invalid at line 1, column 11: expected "CASEI" or a string in single quotes, but found "5".',
    at: [1, 11, 10],
  },
  {
    filter: 'floors',
    message: 'The filter is invalid at line 1, column 7: expected "IS", "NOT", "LIKE", "BETWEEN", "IN" or a comparison operator, but found the end of the filter.',
    at: [1, 7, 6],
  },
  {
    filter: '(a = 1',
    message: 'The filter is invalid at line 1, column 7: expected "AND", "OR" or ")", but found the end of the filter.',
    at: [1, 7, 6],
  },
  {
    filter: "updated >= DATE('2021-02-29')",
    message: 'The filter is invalid at line 1, column 12: "2021-02-29" is not a day of the calendar.',
    at: [1, 12, 11],
  },
  {
    filter: "t < TIMESTAMP('2021-02-01T24:00:00Z')",
    message: 'The filter is invalid at line 1, column 5: "2021-02-01T24:00:00Z" is not a time of the day.',
    at: [1, 5, 4],
  },
  {
    filter: 'S_INTERSECTS(g, POLYGON((0 0, 1 0, 1 1, 0 1)))',
    message: "The filter is invalid at line 1, column 25: a polygon's ring must end at its first position.",
    at: [1, 25, 24],
  },
  {
    filter: 'S_INTERSECTS(g, BBOX(0, 0, 1))',
    message: 'The filter is invalid at line 1, column 17: a BBOX has 4 or 6 numbers, not 3.',
    at: [1, 17, 16],
  },
  {
    filter: 'avg(windSpeed) < 4',
    message: 'The filter is invalid at line 1, column 1: avg(…) is not supported: the functions are CASEI, DATE, TIMESTAMP and S_INTERSECTS, and the geometries POINT, POLYGON, MULTIPOLYGON and BBOX.',
    at: [1, 1, 0],
  },
  {
    filter: "name = 'a' AND S_INTERSECTS(geometry, LINESTRING(0 0, 1 1))",
    message: 'The filter is invalid at line 1, column 39: LINESTRING(…) is not supported: the functions are CASEI, DATE, TIMESTAMP and S_INTERSECTS, and the geometries POINT, POLYGON, MULTIPOLYGON and BBOX.',
    at: [1, 39, 38],
  },
  {
    filter: 'CASEI(5) = 5',
    message: 'The filter is invalid at line 1, column 7: CASEI takes a string in single quotes, a property name or another CASEI.',
    at: [1, 7, 6],
  },
  {
    filter: 'NOT (a = )',
    message: 'The filter is invalid at line 1, column 10: expected a value, but found ")".',
    at: [1, 10, 9],
  },
  {
    filter: "a = 'x\u0000'",
    message: 'The filter is invalid at line 1, column 5: a string must not contain the NUL character (\\u0000).',
    at: [1, 5, 4],
  },
  {
    filter: 'S_INTERSECTS(g, POLYGON((-1e155 -1e155, 1e155 -1e155, 1e155 1e155, -1e155 -1e155)))',
    message: 'The filter is invalid at line 1, column 26: the position [-1e+155, -1e+155] is not within longitude -180 to 180 and latitude -90 to 90.',
    at: [1, 26, 25],
  },
  {
    filter: 'S_INTERSECTS(g, POINT(0 90.5))',
    message: 'The filter is invalid at line 1, column 23: the position [0, 90.5] is not within longitude -180 to 180 and latitude -90 to 90.',
    at: [1, 23, 22],
  },
  {
    filter: 'S_INTERSECTS(g, POINT(0 0 1e999))',
    message: 'The filter is invalid at line 1, column 23: the height of the position [0, 0, Infinity] is not a finite number.',
    at: [1, 23, 22],
  },
  {
    filter: 'S_INTERSECTS(g, BBOX(1e308, 1e308, -1e308, -1e308))',
    message: 'The filter is invalid at line 1, column 17: a BBOX is west, south, east, north within longitude -180 to 180 and latitude -90 to 90, west ≤ east and south ≤ north, not [1e+308, 1e+308, -1e+308, -1e+308].',
    at: [1, 17, 16],
  },
  {
    filter: 'S_INTERSECTS(g, BBOX(1, 0, -1, 1))',
    message: 'The filter is invalid at line 1, column 17: a BBOX is west, south, east, north within longitude -180 to 180 and latitude -90 to 90, west ≤ east and south ≤ north, not [1, 0, -1, 1].',
    at: [1, 17, 16],
  },
  {
    filter: 'S_INTERSECTS(g, BBOX(0, 0, 5, 1, 1, 4))',
    message: "The filter is invalid at line 1, column 17: a BBOX's heights are finite numbers, the lowest first, not [0, 0, 5, 1, 1, 4].",
    at: [1, 17, 16],
  },
];

test('CQL2-Text errors: line, column, offset and what was expected, in one sentence', () => {
  for (const { filter, message, at } of TEXT_ERRORS) {
    const error = refusal(() => parser.parse(filter));
    assert.equal(error.message, message, filter);
    assert.deepEqual(error.position, { line: at[0], column: at[1], offset: at[2] }, filter);
  }
  assert.deepEqual(refusal(() => parser.parse('name = foo bar')).expected, ['"AND"', '"OR"', 'the end of the filter']);
});

const JSON_ERRORS: [string, string][] = [
  ['{"op":"like","args":[{"property":"name"},5]}', 'The filter is invalid at $.args[1]: expected a LIKE pattern: a string or {"op": "casei", "args": [a pattern]}.'],
  ['{"op":"and","args":[{"op":"=","args":[{"property":"a"},1]}]}', 'The filter is invalid at $.args: "and" takes at least 2 arguments, not 1.'],
  ['{"op":"t_before","args":[]}', 'The filter is invalid at $.op: the operator "t_before" is not supported; use one of "and", "or", "not", "=", "<>", "<", ">", "<=", ">=", "like", "between", "in", "isNull" or "s_intersects".'],
  ['{"op":"=","args":[{"property":"a","x":1},1]}', 'The filter is invalid at $.args[0]: a property reference has no member "x".'],
  ['{"op":"=","args":[{"date":"2020-02-30"},1]}', 'The filter is invalid at $.args[0].date: "2020-02-30" is not a day of the calendar.'],
  ['{"op":"in","args":[{"property":"a"},[1,null]]}', 'The filter is invalid at $.args[1][1]: expected a value: a string, a number, true or false, {"property": …}, {"date": …}, {"timestamp": …} or {"op": "casei", …}.'],
  ['{"op":"s_intersects","args":[{"property":"g"},{"type":"LineString","coordinates":[[0,0],[1,1]]}]}', 'The filter is invalid at $.args[1].type: the geometry type "LineString" is not supported; use "Point", "Polygon" or "MultiPolygon".'],
  ['{"op":"s_intersects","args":[{"property":"g"},{"type":"Point","coordinates":[0]}]}', 'The filter is invalid at $.args[1].coordinates: a position has 2 or 3 numbers.'],
  ['{"op":"s_intersects","args":[{"property":"g"},{"bbox":[0,0,"1",1]}]}', 'The filter is invalid at $.args[1].bbox[2]: expected a number.'],
  ['"name"', 'The filter is invalid at $: expected a predicate: an object with "op" and "args", or true or false.'],
  ['{"op": "=", "args": [1', 'The filter is not valid JSON.'],
  ['{"op":"=","op":"<","args":[{"property":"a"},1]}', 'The filter is invalid at $.op: the key "op" is given twice in this object (keys must be unique).'],
  ['{"op":"=","args":[{"property":"a","property":"b"},1]}', 'The filter is invalid at $.args[0].property: the key "property" is given twice in this object (keys must be unique).'],
  ['{"op":"s_intersects","args":[{"property":"g"},{"bbox":[0,0,1,1],"bbox":[0,0,2,2]}]}', 'The filter is invalid at $.args[1].bbox: the key "bbox" is given twice in this object (keys must be unique).'],
  ['{"op":"=","args":[{"property":"a"},"x\\u0000"]}', 'The filter is invalid at $.args[1]: must not contain the NUL character (\\u0000).'],
  ['{"op":"like","args":[{"property":"a"},"\\ud800%"]}', 'The filter is invalid at $.args[1]: must not contain a lone UTF-16 surrogate (such as \\ud800): it is not a character.'],
  ['{"op":"s_intersects","args":[{"property":"g"},{"type":"Point","coordinates":[1e999,0]}]}', 'The filter is invalid at $.args[1].coordinates: the position [Infinity, 0] is not within longitude -180 to 180 and latitude -90 to 90.'],
  ['{"op":"s_intersects","args":[{"property":"g"},{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,100],[0,0]]]}]}', 'The filter is invalid at $.args[1].coordinates[0][2]: the position [1, 100] is not within longitude -180 to 180 and latitude -90 to 90.'],
  ['{"op":"s_intersects","args":[{"property":"g"},{"bbox":[-181,0,1,1]}]}', 'The filter is invalid at $.args[1].bbox: a BBOX is west, south, east, north within longitude -180 to 180 and latitude -90 to 90, west ≤ east and south ≤ north, not [-181, 0, 1, 1].'],
];

test('CQL2-JSON errors name the JSON path', () => {
  for (const [json, message] of JSON_ERRORS) assert.equal(refusal(() => parseCql2Json(json)).message, message, json);
  assert.equal(refusal(() => parseCql2Json('{"op":"not","args":[7]}')).path, '$.args[0]');
  assert.equal(refusal(() => parseCql2Json('{"op":"not","args":[true],"args":[false]}')).path, '$.args');
});

test('strings the stores cannot hold are refused in a value already parsed too', () => {
  assert.equal(refusal(() => readCql2Json({ op: '=', args: [{ property: 'a' }, 'x\u0000'] })).message, 'The filter is invalid at $.args[1]: a string must not contain the NUL character (\\u0000).');
  assert.equal(refusal(() => readCql2Json({ op: 'like', args: [{ property: 'a' }, { op: 'casei', args: ['\u0000'] }] })).path, '$.args[1].args[0]');
});

const LIMITS: Cql2Limits = { maxLength: 40, maxDepth: 4, maxNodes: 5, maxPositions: 8 };

test('bounds: length, depth and node count at the limit and one past', () => {
  const small = createCql2TextParser(LIMITS);
  const cases: [string, string, string][] = [
    [`a = ${'1'.repeat(36)}`, `a = ${'1'.repeat(37)}`, 'The filter is 41 characters long; at most 40 are accepted.'],
    ['NOT (NOT (a = 1))', 'NOT (NOT (NOT (a = 1)))', 'The filter is nested more than 4 levels deep.'],
    ['a IN (1, 2, 3)', 'a IN (1, 2, 3, 4)', 'The filter has more than 5 terms; simplify it.'],
  ];
  for (const [atLimit, past, message] of cases) {
    assert.doesNotThrow(() => small.parse(atLimit), atLimit);
    assert.equal(refusal(() => small.parse(past)).message, message, past);
  }
  const not = (arg: unknown): unknown => ({ op: 'not', args: [arg] });
  const compare = { op: '=', args: [{ property: 'a' }, 1] };
  assert.doesNotThrow(() => readCql2Json(not(not(compare)), LIMITS));
  assert.equal(refusal(() => readCql2Json(not(not(not(compare))), LIMITS)).message, 'The filter is nested more than 4 levels deep.');
  assert.doesNotThrow(() => readCql2Json({ op: 'in', args: [{ property: 'a' }, [1, 2, 3]] }, LIMITS));
  assert.equal(refusal(() => readCql2Json({ op: 'in', args: [{ property: 'a' }, [1, 2, 3, 4]] }, LIMITS)).message, 'The filter has more than 5 terms; simplify it.');
  const json = JSON.stringify(compare);
  assert.doesNotThrow(() => parseCql2Json(json, { ...LIMITS, maxLength: json.length }));
  assert.match(refusal(() => parseCql2Json(json, { ...LIMITS, maxLength: json.length - 1 })).message, /characters long/);
});

/** A closed ring of n positions (n ≥ 4), short to write, as CQL2-Text and as GeoJSON coordinates. */
function ring(n: number): { text: string; json: number[][] } {
  const open = Array.from({ length: n - 1 }, (_, i) => [i % 100, Math.floor(i / 100)]);
  const json = [...open, [0, 0]];
  return { text: json.map(([x, y]) => `${x} ${y}`).join(', '), json };
}

test('bounds: the positions of all geometries together, at the limit and one past, in text and JSON', () => {
  const limits: Cql2Limits = { maxLength: 8000, maxDepth: 32, maxNodes: 500, maxPositions: 8 };
  const small = createCql2TextParser(limits);
  const [four, five] = [ring(4), ring(5)];
  // 4 + 4 positions (each ring's closing one counted), then 4 + 5.
  const atLimit = `S_INTERSECTS(g, POLYGON((${four.text}))) OR S_INTERSECTS(g, MULTIPOLYGON(((${four.text}))))`;
  const past = `S_INTERSECTS(g, POLYGON((${four.text}))) OR S_INTERSECTS(g, MULTIPOLYGON(((${five.text}))))`;
  assert.doesNotThrow(() => small.parse(atLimit));
  assert.equal(refusal(() => small.parse(past)).message, "The filter's geometries have 9 positions (vertices) in all; at most 8 are accepted.");
  const point = `S_INTERSECTS(g, POINT(0 0))`;
  assert.equal(refusal(() => small.parse(`${point} AND ${atLimit}`)).message, "The filter's geometries have 9 positions (vertices) in all; at most 8 are accepted.");
  const polygon = (coordinates: number[][][]) => ({ op: 's_intersects', args: [{ property: 'g' }, { type: 'Polygon', coordinates }] });
  assert.doesNotThrow(() => readCql2Json(polygon([four.json, four.json]), limits));
  assert.equal(refusal(() => parseCql2Json(JSON.stringify(polygon([four.json, five.json])), limits)).message, "The filter's geometries have 9 positions (vertices) in all; at most 8 are accepted.");
});

test('bounds: 500 positions by default', () => {
  const reader = createCql2Reader();
  assert.doesNotThrow(() => reader.read(`S_INTERSECTS(g, POLYGON((${ring(500).text})))`));
  assert.equal(refusal(() => reader.read(`S_INTERSECTS(g, POLYGON((${ring(501).text})))`)).message, "The filter's geometries have 501 positions (vertices) in all; at most 500 are accepted.");
  const json = JSON.stringify({ op: 's_intersects', args: [{ property: 'g' }, { type: 'Polygon', coordinates: [ring(501).json] }] });
  assert.equal(refusal(() => reader.read(json, 'cql2-json')).message, "The filter's geometries have 501 positions (vertices) in all; at most 500 are accepted.");
});

test('bounds: thousands of brackets or nested JSON are refused without deep recursion', () => {
  const deep = `${'('.repeat(3900)}a = 1${')'.repeat(3900)}`;
  assert.equal(refusal(() => parser.parse(deep)).message, 'The filter is nested more than 32 levels deep.');
  let json: unknown = { op: '=', args: [{ property: 'a' }, 1] };
  for (let i = 0; i < 100_000; i += 1) json = { op: 'not', args: [json] };
  assert.equal(refusal(() => readCql2Json(json)).message, 'The filter is nested more than 32 levels deep.');
  // Brackets inside a string, after an escaped quote, are not counted; redundant ones are.
  const quoted = (brackets: number): string => `a = '${"\\')".repeat(100)}' AND ${'('.repeat(brackets)}b = 1${')'.repeat(brackets)}`;
  assert.doesNotThrow(() => parser.parse(quoted(68)));
  assert.equal(refusal(() => parser.parse(quoted(69))).message, 'The filter is nested more than 32 levels deep.');
});

test('the reader of filter and filter-lang: text by default, JSON, or a named refusal', () => {
  const reader = createCql2Reader();
  const tree = { kind: 'compare', op: '=', left: { kind: 'property', name: 'a' }, right: { kind: 'number', value: 1 } };
  assert.deepEqual(reader.read('a = 1'), tree);
  assert.deepEqual(reader.read('a = 1', 'cql2-text'), tree);
  assert.deepEqual(reader.read('{"op":"=","args":[{"property":"a"},1]}', 'cql2-json'), tree);
  assert.deepEqual(reader.read('a = 1', 'cql-text'), tree);
  assert.equal(refusal(() => reader.read('a = 1', 'cql')).message, 'The filter language "cql" is not supported; use "cql2-text", "cql2-json", "cql-text".');
});

test('cql-text, the draft dialect GDAL 3.6 sends: ILIKE is CASEI(a) LIKE CASEI(p), NOT ILIKE its negation; CQL2 text refuses ILIKE', () => {
  const reader = createCql2Reader();
  const a = { kind: 'property', name: 'a' };
  const ilike = { kind: 'like', value: { kind: 'casei', arg: a }, pattern: { kind: 'casei', arg: { kind: 'string', value: 'x%' } } };
  assert.deepEqual(reader.read("a ILIKE 'x%'", 'cql-text'), ilike);
  assert.deepEqual(reader.read("a ilike 'x%'", 'cql-text'), ilike);
  assert.deepEqual(reader.read("a NOT ILIKE 'x%'", 'cql-text'), { kind: 'not', arg: ilike });
  // GDAL's own writing: each comparison bracketed, NOT before a bracket, IS NULL bracketed.
  assert.deepEqual(reader.read("((a ILIKE 'x%') AND (b >= 1890)) OR (NOT ((c IS NULL)))", 'cql-text'), {
    kind: 'or',
    args: [
      { kind: 'and', args: [ilike, { kind: 'compare', op: '>=', left: { kind: 'property', name: 'b' }, right: { kind: 'number', value: 1890 } }] },
      { kind: 'not', arg: { kind: 'isNull', value: { kind: 'property', name: 'c' } } },
    ],
  });
  // GDAL 3.6's dates: '…T' a date, '…Thh[:mm[:ss]]Z' an instant; CQL2 text keeps them strings.
  const compare = (right: unknown) => ({ kind: 'compare', op: '>=', left: a, right });
  assert.deepEqual(reader.read("a >= '2015-01-31T'", 'cql-text'), compare({ kind: 'date', value: '2015-01-31' }));
  assert.deepEqual(reader.read("a >= '2015-01-31T10Z'", 'cql-text'), compare({ kind: 'timestamp', value: '2015-01-31T10:00:00Z' }));
  assert.deepEqual(reader.read("a >= '2015-01-31T10:30:05Z'", 'cql-text'), compare({ kind: 'timestamp', value: '2015-01-31T10:30:05Z' }));
  assert.deepEqual(reader.read("a >= '2015-01-31'", 'cql-text'), compare({ kind: 'string', value: '2015-01-31' }));
  assert.deepEqual(reader.read("a >= '2015-01-31T'", 'cql2-text'), compare({ kind: 'string', value: '2015-01-31T' }));
  assert.match(refusal(() => reader.read("a >= '2015-02-30T'", 'cql-text')).message, /not a day of the calendar/);
  assert.match(refusal(() => reader.read("a ILIKE 'x%'", 'cql2-text')).message, /^The filter is invalid at line 1, column 3: expected .*but found "ILIKE"\.$/);
  assert.match(refusal(() => reader.read("a ILIKE 'x%'")).message, /found "ILIKE"/);
});
