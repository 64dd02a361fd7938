// CQL2-JSON → the same AST as CQL2-Text, checked member by member against the shapes of the
// standard's JSON Schema (`cql2/standard/schema/cql2.json`) for the classes served. Every
// refusal names the JSON path of the value at fault. JSON text is read as catalogue and change
// files are (catalogue/value-builder.ts), so a key given twice is refused, not the last one
// taken.
import { none } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/parser.js';
import { formatPath } from '../../catalogue/paths.js';
import { TokenPacker, ValueBuilder } from '../../catalogue/value-builder.js';
import type {
  Expression, Geometry, Position, Scalar, SpatialLiteral, SpatialOperand, ComparisonOperator,
} from './ast.js';
import { COMPARISON_OPERATORS } from './ast.js';
import { checkLength, checkTree, DEFAULT_CQL2_LIMITS, depthError, type Cql2Limits } from './bounds.js';
import { Cql2Error, listInWords } from './errors.js';
import { CRS84_CHECKS, dateProblem, ringProblem, stringProblem, timestampProblem, type SpatialChecks } from './literals.js';

const LOGICAL = ['and', 'or', 'not'];
const OTHER_OPERATORS = ['like', 'between', 'in', 'isNull', 's_intersects'];
const KNOWN_OPERATORS = [...LOGICAL, ...COMPARISON_OPERATORS, ...OTHER_OPERATORS];

interface Reading { readonly limits: Cql2Limits; readonly spatial: SpatialChecks }
type Json = Record<string, unknown>;

/** A filter sent as CQL2-JSON text (`filter-lang=cql2-json` in a URL). */
export function parseCql2Json(text: string, limits: Cql2Limits = DEFAULT_CQL2_LIMITS, spatial: SpatialChecks = CRS84_CHECKS): Expression {
  checkLength(text, limits);
  try {
    JSON.parse(text);
  } catch {
    throw new Cql2Error('The filter is not valid JSON.', { path: '$' });
  }
  return readCql2Json(valueOf(text, limits), limits, spatial);
}

/** Valid JSON text → its value, refused at the first thing only the text shows: a key twice in an object, NUL or a lone surrogate in a string. */
function valueOf(text: string, limits: Cql2Limits): unknown {
  const parse = jsonParser({ packValues: false, streamValues: true });
  const packer = new TokenPacker(limits.maxLength);
  const builder = new ValueBuilder({ maxStringChars: limits.maxLength, maxPositions: limits.maxPositions, maxRecordBytes: Number.MAX_SAFE_INTEGER });
  for (const produced of [parse(text), parse(none as never)]) {
    if (produced === none) continue;
    for (const token of (produced as { values: Token[] }).values) {
      const packed = packer.pack(token);
      if (packed !== null) builder.take(packed);
    }
  }
  const [problem] = builder.problems;
  if (problem !== undefined) fail(jsonPath(formatPath(problem.segments)), problem.message);
  return builder.value;
}

/** formatPath's `args[0].op` as the readers write it, `$.args[0].op`. */
function jsonPath(path: string): string {
  return path.startsWith('$') ? path : `$.${path}`;
}

/** A filter already parsed from JSON (a request body). */
export function readCql2Json(value: unknown, limits: Cql2Limits = DEFAULT_CQL2_LIMITS, spatial: SpatialChecks = CRS84_CHECKS): Expression {
  const tree = readExpression(value, '$', 1, { limits, spatial });
  checkTree(tree, limits);
  return tree;
}

function fail(path: string, sentence: string): never {
  throw new Cql2Error(`The filter is invalid at ${path}: ${sentence}.`, { path });
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object with exactly these members. */
function members(value: unknown, path: string, names: readonly string[], what: string): Json {
  if (!isObject(value)) fail(path, `expected ${what}`);
  for (const name of Object.keys(value)) {
    if (!names.includes(name)) fail(path, `${what} has no member ${JSON.stringify(name)}`);
  }
  for (const name of names) {
    if (!(name in value)) fail(path, `${what} needs the member ${JSON.stringify(name)}`);
  }
  return value;
}

function operation(value: Json, path: string, count: number | 'many'): { op: string; args: unknown[] } {
  const { op, args } = members(value, path, ['op', 'args'], 'an operation');
  if (typeof op !== 'string') fail(`${path}.op`, 'expected an operator name');
  if (!Array.isArray(args)) fail(`${path}.args`, 'expected an array of arguments');
  if (count === 'many' ? args.length < 2 : args.length !== count) {
    fail(`${path}.args`, `"${op}" takes ${count === 'many' ? 'at least 2' : count} argument${count === 1 ? '' : 's'}, not ${args.length}`);
  }
  return { op, args };
}

function readExpression(value: unknown, path: string, depth: number, reading: Reading): Expression {
  if (depth > reading.limits.maxDepth) throw depthError(reading.limits);
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (!isObject(value) || typeof value.op !== 'string') fail(path, 'expected a predicate: an object with "op" and "args", or true or false');
  const op = value.op;
  const at = (i: number): string => `${path}.args[${i}]`;
  const next = depth + 1;
  if (op === 'and' || op === 'or') {
    const { args } = operation(value, path, 'many');
    return { kind: op, args: args.map((arg, i) => readExpression(arg, at(i), next, reading)) };
  }
  if (op === 'not') return { kind: 'not', arg: readExpression(operation(value, path, 1).args[0], at(0), next, reading) };
  return readPredicate(value, op, path, next, reading);
}

function readPredicate(value: Json, op: string, path: string, depth: number, reading: Reading): Expression {
  const at = (i: number): string => `${path}.args[${i}]`;
  const scalar = (args: unknown[], i: number): Scalar => readScalar(args[i], at(i), depth, reading);
  if (isComparison(op)) {
    const { args } = operation(value, path, 2);
    return { kind: 'compare', op, left: scalar(args, 0), right: scalar(args, 1) };
  }
  switch (op) {
    case 'like': {
      const { args } = operation(value, path, 2);
      return { kind: 'like', value: scalar(args, 0), pattern: readPattern(args[1], at(1), depth, reading) };
    }
    case 'between': {
      const { args } = operation(value, path, 3);
      return { kind: 'between', value: scalar(args, 0), low: scalar(args, 1), high: scalar(args, 2) };
    }
    case 'in': {
      const { args } = operation(value, path, 2);
      const list = args[1];
      if (!Array.isArray(list) || list.length === 0) fail(at(1), 'expected a non-empty array of values');
      return { kind: 'in', value: scalar(args, 0), list: list.map((item, i) => readScalar(item, `${at(1)}[${i}]`, depth + 1, reading)) };
    }
    case 'isNull': return { kind: 'isNull', value: scalar(operation(value, path, 1).args, 0) };
    case 's_intersects': {
      const { args } = operation(value, path, 2);
      return { kind: 'intersects', left: readSpatialOperand(args[0], at(0), reading.spatial), right: readSpatialOperand(args[1], at(1), reading.spatial) };
    }
    default:
      return fail(`${path}.op`, `the operator ${JSON.stringify(op)} is not supported; use one of ${listInWords(KNOWN_OPERATORS.map((name) => JSON.stringify(name)))}`);
  }
}

function isComparison(op: string): op is ComparisonOperator {
  return COMPARISON_OPERATORS.some((known) => known === op);
}

function readScalar(value: unknown, path: string, depth: number, reading: Reading): Scalar {
  if (depth > reading.limits.maxDepth) throw depthError(reading.limits);
  if (typeof value === 'string') return { kind: 'string', value: checkedString(value, path) };
  if (typeof value === 'number') return { kind: 'number', value };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (isObject(value)) {
    if ('property' in value) return { kind: 'property', name: text(members(value, path, ['property'], 'a property reference').property, `${path}.property`) };
    if ('date' in value) return dated('date', members(value, path, ['date'], 'a date').date, `${path}.date`);
    if ('timestamp' in value) return dated('timestamp', members(value, path, ['timestamp'], 'a timestamp').timestamp, `${path}.timestamp`);
    if (value.op === 'casei') return { kind: 'casei', arg: readScalar(operation(value, path, 1).args[0], `${path}.args[0]`, depth + 1, reading) };
  }
  return fail(path, 'expected a value: a string, a number, true or false, {"property": …}, {"date": …}, {"timestamp": …} or {"op": "casei", …}');
}

/** The BNF's patternExpression: a string, or CASEI of a pattern. */
function readPattern(value: unknown, path: string, depth: number, reading: Reading): Scalar {
  if (depth > reading.limits.maxDepth) throw depthError(reading.limits);
  if (typeof value === 'string') return { kind: 'string', value: checkedString(value, path) };
  if (isObject(value) && value.op === 'casei') {
    return { kind: 'casei', arg: readPattern(operation(value, path, 1).args[0], `${path}.args[0]`, depth + 1, reading) };
  }
  return fail(path, 'expected a LIKE pattern: a string or {"op": "casei", "args": [a pattern]}');
}

function checkedString(value: string, path: string): string {
  const problem = stringProblem(value);
  return problem === undefined ? value : fail(path, problem);
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') fail(path, 'expected a non-empty string');
  return value;
}

function dated(kind: 'date' | 'timestamp', value: unknown, path: string): Scalar {
  const written = text(value, path);
  const problem = kind === 'date' ? dateProblem(written) : timestampProblem(written);
  if (problem !== undefined) fail(path, problem);
  return { kind, value: written };
}

function readSpatialOperand(value: unknown, path: string, spatial: SpatialChecks): SpatialOperand {
  if (isObject(value) && 'property' in value) {
    return { kind: 'property', name: text(members(value, path, ['property'], 'a property reference').property, `${path}.property`) };
  }
  return readSpatialLiteral(value, path, spatial);
}

function readSpatialLiteral(value: unknown, path: string, spatial: SpatialChecks): SpatialLiteral {
  if (isObject(value) && 'bbox' in value) {
    const bbox = numbers(members(value, path, ['bbox'], 'a bbox').bbox, `${path}.bbox`);
    const problem = spatial.bbox(bbox);
    if (problem !== undefined) fail(`${path}.bbox`, problem);
    return { kind: 'bbox', value: bbox };
  }
  if (isObject(value) && 'type' in value) return { kind: 'geometry', value: readGeometry(value, path, spatial) };
  return fail(path, 'expected a property, a GeoJSON Point, Polygon or MultiPolygon, or {"bbox": […]}');
}

function readGeometry(value: Json, path: string, spatial: SpatialChecks): Geometry {
  const position = checkedPosition(spatial);
  const polygon = checkedPolygon(position);
  const { type, coordinates } = members(value, path, ['type', 'coordinates'], 'a GeoJSON geometry');
  const at = `${path}.coordinates`;
  if (type === 'Point') return { type, coordinates: position(coordinates, at) };
  if (type === 'Polygon') return { type, coordinates: polygon(coordinates, at) };
  if (type === 'MultiPolygon') return { type, coordinates: list(coordinates, at, polygon) };
  return fail(`${path}.type`, `the geometry type ${JSON.stringify(type)} is not supported; use "Point", "Polygon" or "MultiPolygon"`);
}

function list<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
  if (!Array.isArray(value) || value.length === 0) fail(path, 'expected a non-empty array');
  return value.map((entry, i) => item(entry, `${path}[${i}]`));
}

function numbers(value: unknown, path: string): number[] {
  return list(value, path, (entry, at) => (typeof entry === 'number' ? entry : fail(at, 'expected a number')));
}

function checkedPosition(spatial: SpatialChecks) {
  return (value: unknown, path: string): Position => {
    const coordinates = numbers(value, path);
    if (coordinates.length !== 2 && coordinates.length !== 3) fail(path, 'a position has 2 or 3 numbers');
    const problem = spatial.position(coordinates);
    return problem === undefined ? coordinates : fail(path, problem);
  };
}

function checkedPolygon(position: (value: unknown, path: string) => Position) {
  return (value: unknown, path: string): Position[][] => list(value, path, (ring, at) => {
    const positions = list(ring, at, position);
    const problem = ringProblem(positions);
    if (problem !== undefined) fail(at, problem);
    return positions;
  });
}
