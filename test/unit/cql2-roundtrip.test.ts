// Property test: any tree printed by toText parses back to the same tree, so a `next` link
// can carry the filter whichever encoding the request used. Also the parser's costs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Expression, Position, Scalar, SpatialOperand } from '../../src/ogc/cql2/ast.js';
import { COMPARISON_OPERATORS } from '../../src/ogc/cql2/ast.js';
import { Cql2Error } from '../../src/ogc/cql2/errors.js';
import { readCql2Json } from '../../src/ogc/cql2/json-reader.js';
import { createCql2TextParser } from '../../src/ogc/cql2/text-parser.js';
import { toText } from '../../src/ogc/cql2/to-text.js';

/** fast-check's records have no prototype by default; the parser's objects do. */
const record = <T,>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> => fc.record(model, { noNullPrototype: true });

const NAMES = ['name', 'eo:cloud_cover', 'a.b', 'Straße', 'date', 'casei', 'POINT', 'and', 'In', '_x1', 'Οδος', '\u{10000}z', 'not_null'];

const property = fc.constantFrom(...NAMES).map((name) => ({ kind: 'property' as const, name }));
// No NUL: the readers refuse it (no store holds it).
const string = fc.string({ unit: 'binary', maxLength: 12 }).filter((value) => !value.includes('\u0000')).map((value) => ({ kind: 'string' as const, value }));
const double = fc.double({ noNaN: true, noDefaultInfinity: true });
const number = fc.oneof(double, fc.integer()).map((value) => ({ kind: 'number' as const, value }));
const boolean = fc.boolean().map((value) => ({ kind: 'boolean' as const, value }));
const day = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
const date = day.map((value) => ({ kind: 'date' as const, value: value.toISOString().slice(0, 10) }));
const timestamp = day.map((value) => ({ kind: 'timestamp' as const, value: value.toISOString() }));

const { character, scalar, pattern } = fc.letrec<{ character: Scalar; scalar: Scalar; pattern: Scalar }>((tie) => ({
  character: fc.oneof(
    { depthSize: 'small' },
    property,
    string,
    tie('character').map((arg) => ({ kind: 'casei' as const, arg })),
  ),
  scalar: fc.oneof(property, string, number, boolean, date, timestamp, tie('character')),
  pattern: fc.oneof({ depthSize: 'small' }, string, tie('pattern').map((arg) => ({ kind: 'casei' as const, arg }))),
}));

// Longitude and latitude in range (the readers refuse others); a height is any finite number.
const longitude = fc.double({ min: -180, max: 180, noNaN: true });
const latitude = fc.double({ min: -90, max: 90, noNaN: true });
const position: fc.Arbitrary<Position> = fc.oneof(fc.tuple(longitude, latitude), fc.tuple(longitude, latitude, double));
const ordered = (a: number, b: number): [number, number] => (a <= b ? [a, b] : [b, a]);
const bbox = fc.tuple(longitude, longitude, latitude, latitude, fc.option(fc.tuple(double, double))).map(([x1, x2, y1, y2, heights]) => {
  const [[west, east], [south, north]] = [ordered(x1, x2), ordered(y1, y2)];
  if (heights === null) return [west, south, east, north];
  const [lowest, highest] = ordered(...heights);
  return [west, south, lowest, east, north, highest];
});
const ring = fc.array(position, { minLength: 3, maxLength: 5 }).map((positions) => [...positions, positions[0] ?? [0, 0]]);
const polygon = fc.array(ring, { minLength: 1, maxLength: 2 });
const spatial: fc.Arbitrary<SpatialOperand> = fc.oneof(
  property,
  position.map((coordinates) => ({ kind: 'geometry' as const, value: { type: 'Point' as const, coordinates } })),
  polygon.map((coordinates) => ({ kind: 'geometry' as const, value: { type: 'Polygon' as const, coordinates } })),
  fc.array(polygon, { minLength: 1, maxLength: 2 }).map((coordinates) => ({ kind: 'geometry' as const, value: { type: 'MultiPolygon' as const, coordinates } })),
  bbox.map((value) => ({ kind: 'bbox' as const, value })),
);

const predicate: fc.Arbitrary<Expression> = fc.oneof(
  record({ kind: fc.constant('compare' as const), op: fc.constantFrom(...COMPARISON_OPERATORS), left: scalar, right: scalar }),
  record({ kind: fc.constant('like' as const), value: character, pattern }),
  record({ kind: fc.constant('between' as const), value: scalar, low: scalar, high: scalar }),
  record({ kind: fc.constant('in' as const), value: scalar, list: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
  record({ kind: fc.constant('isNull' as const), value: scalar }),
  record({ kind: fc.constant('intersects' as const), left: spatial, right: spatial }),
  boolean,
);

const { expression } = fc.letrec<{ expression: Expression }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    predicate,
    record({ kind: fc.constant('and' as const), args: fc.array(tie('expression'), { minLength: 2, maxLength: 3 }) }),
    record({ kind: fc.constant('or' as const), args: fc.array(tie('expression'), { minLength: 2, maxLength: 3 }) }),
    record({ kind: fc.constant('not' as const), arg: tie('expression') }),
  ),
}));

test('toText then parse gives the same tree (fast-check)', () => {
  const parser = createCql2TextParser({ maxLength: 1_000_000, maxDepth: 1000, maxNodes: 100_000, maxPositions: 100_000 });
  fc.assert(fc.property(expression, (tree) => {
    assert.deepEqual(parser.parse(toText(tree)), tree);
  }), { numRuns: 500 });
});

test('costs: the first filter (peggy loaded, the parser generated) and each one after', (t) => {
  // CPU time, not wall time: the test machine is shared.
  const cpuMs = (): number => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };
  const filter = "name LIKE 'Toyn%' AND floors BETWEEN 2 AND 4 AND S_INTERSECTS(geometry, BBOX(-0.1, 51.5, -0.05, 51.53))";
  const started = cpuMs();
  const parser = createCql2TextParser();
  parser.parse(filter);
  const created = cpuMs() - started;
  for (let i = 0; i < 200; i += 1) parser.parse(filter);
  const parsing = cpuMs();
  for (let i = 0; i < 1000; i += 1) parser.parse(filter);
  const perParse = (cpuMs() - parsing) / 1000;
  t.diagnostic(`first filter (parser generated) in ${created.toFixed(1)} ms of CPU; a three-predicate filter parsed in ${(perParse * 1000).toFixed(1)} µs`);
  assert.ok(created < 2000 && perParse < 5);
});

test('toText writes the usual forms: negated predicates, brackets only where needed, quoted names', () => {
  const parser = createCql2TextParser();
  const table: [string, string][] = [
    ['NOT "name" LIKE \'foo%\'', "name NOT LIKE 'foo%'"],
    ['NOT x IS NULL AND NOT (y = 1)', 'x IS NOT NULL AND NOT y = 1'],
    ['NOT (NOT (a = 1 OR b = 2))', 'NOT (NOT (a = 1 OR b = 2))'],
    ["swimming_pool=true AND (floors>5 OR material LIKE 'brick%')", "swimming_pool = TRUE AND (floors > 5 OR material LIKE 'brick%')"],
    ['(a = 1 AND b = 2) AND c = 3', '(a = 1 AND b = 2) AND c = 3'],
    ['"and" = 1 AND "date" = DATE(\'2020-02-29\')', '"and" = 1 AND date = DATE(\'2020-02-29\')'],
    [String.raw`s = 'it''s \\ \n'`, String.raw`s = 'it''s \\ \n'`],
    ['v NOT BETWEEN -1.5 AND 2e3', 'v NOT BETWEEN -1.5 AND 2000'],
    ['S_INTERSECTS(g, MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0))))', 'S_INTERSECTS(g, MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0))))'],
  ];
  for (const [input, printed] of table) assert.equal(toText(parser.parse(input)), printed, input);
});

test('any text either parses or is refused with a Cql2Error, never another exception (fast-check)', () => {
  const parser = createCql2TextParser();
  const pieces = fc.constantFrom('a', ' ', '(', ')', "'", '\\', '"', 'AND', 'NOT', '=', '<', '5', '-', '.', 'e', ',', 'LIKE', 'IN', 'CASEI(', 'DATE(', 'POINT(', 'BBOX(', 'S_INTERSECTS(', 'IS', 'NULL', '%', '\u{10000}');
  const texts = fc.oneof(fc.string({ unit: 'binary' }), fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join('')));
  fc.assert(fc.property(texts, (text) => {
    try {
      parser.parse(text);
    } catch (error) {
      assert.ok(error instanceof Cql2Error, String(error));
      assert.match(error.message, /^The filter (is invalid at line \d+, column \d+: .+|has more than|is nested more than .+)\.$/su);
    }
  }), { numRuns: 2000 });
});

test('any JSON value is read or refused with a Cql2Error naming a path (fast-check)', () => {
  const ops = fc.constantFrom('and', 'or', 'not', '=', '<', 'like', 'between', 'in', 'isNull', 's_intersects', 'casei', 'x');
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({ op: ops, args: fc.array(tie('node'), { maxLength: 3 }) }, { noNullPrototype: true }),
      fc.record({ property: fc.oneof(fc.string(), fc.integer()) }, { noNullPrototype: true }),
    ),
  }));
  fc.assert(fc.property(node, (value) => {
    try {
      readCql2Json(value);
    } catch (error) {
      assert.ok(error instanceof Cql2Error, String(error));
      assert.ok(error.path?.startsWith('$') ?? /terms|nested/.test(error.message), error.message);
    }
  }), { numRuns: 2000 });
});
