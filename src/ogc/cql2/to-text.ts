// AST → CQL2-Text that parses back to the same tree: the filter of a `next` link, whichever
// encoding the request used. Nested AND/OR are bracketed so the tree's shape survives.
import type { Expression, Geometry, Position, Scalar, SpatialOperand } from './ast.js';

const RESERVED = new Set(['AND', 'OR', 'NOT', 'LIKE', 'BETWEEN', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE']);
// The BNF's identifierStart and identifierPart.
const START = String.raw`:_A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFE\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}`;
const IDENTIFIER = new RegExp(String.raw`^[${START}][${START}.0-9\u0300-\u036F\u203F-\u2040]*$`, 'u');
const ESCAPED: Readonly<Record<string, string>> = {
  "'": "''", '\\': '\\\\', '\x07': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r',
};

export function toText(expression: Expression): string {
  switch (expression.kind) {
    case 'and': case 'or':
      return expression.args.map((arg) => bracketed(arg)).join(expression.kind === 'and' ? ' AND ' : ' OR ');
    case 'not': return negated(expression.arg);
    case 'compare': return `${scalar(expression.left)} ${expression.op} ${scalar(expression.right)}`;
    case 'like': return `${scalar(expression.value)} LIKE ${scalar(expression.pattern)}`;
    case 'between':
      return `${scalar(expression.value)} BETWEEN ${scalar(expression.low)} AND ${scalar(expression.high)}`;
    case 'in': return `${scalar(expression.value)} IN (${expression.list.map(scalar).join(', ')})`;
    case 'isNull': return `${scalar(expression.value)} IS NULL`;
    case 'intersects': return `S_INTERSECTS(${spatial(expression.left)}, ${spatial(expression.right)})`;
    case 'boolean': return expression.value ? 'TRUE' : 'FALSE';
  }
}

/** AND/OR inside AND/OR keep their shape with brackets; NOT binds tighter, as in SQL. */
function bracketed(expression: Expression, kinds: readonly Expression['kind'][] = ['and', 'or']): string {
  return kinds.includes(expression.kind) ? `(${toText(expression)})` : toText(expression);
}

/** The negated predicates in their usual form: `x NOT LIKE p`, `x IS NOT NULL`. */
function negated(arg: Expression): string {
  switch (arg.kind) {
    case 'like': return `${scalar(arg.value)} NOT LIKE ${scalar(arg.pattern)}`;
    case 'between': return `${scalar(arg.value)} NOT BETWEEN ${scalar(arg.low)} AND ${scalar(arg.high)}`;
    case 'in': return `${scalar(arg.value)} NOT IN (${arg.list.map(scalar).join(', ')})`;
    case 'isNull': return `${scalar(arg.value)} IS NOT NULL`;
    default: return `NOT ${bracketed(arg, ['and', 'or', 'not'])}`;
  }
}

export function scalar(value: Scalar): string {
  switch (value.kind) {
    case 'property': return propertyName(value.name);
    case 'string': return `'${[...value.value].map((char) => ESCAPED[char] ?? char).join('')}'`;
    case 'number': return number(value.value);
    case 'boolean': return value.value ? 'TRUE' : 'FALSE';
    case 'date': return `DATE('${value.value}')`;
    case 'timestamp': return `TIMESTAMP('${value.value}')`;
    case 'casei': return `CASEI(${scalar(value.arg)})`;
  }
}

function propertyName(name: string): string {
  return IDENTIFIER.test(name) && !RESERVED.has(name.toUpperCase()) ? name : `"${name}"`;
}

function number(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

function spatial(operand: SpatialOperand): string {
  if (operand.kind === 'property') return propertyName(operand.name);
  if (operand.kind === 'bbox') return `BBOX(${operand.value.map(number).join(', ')})`;
  return geometry(operand.value);
}

function geometry(value: Geometry): string {
  switch (value.type) {
    case 'Point': return `POINT(${position(value.coordinates)})`;
    case 'Polygon': return `POLYGON${polygon(value.coordinates)}`;
    case 'MultiPolygon': return `MULTIPOLYGON(${value.coordinates.map(polygon).join(', ')})`;
  }
}

function position(coordinates: Position): string {
  return coordinates.map(number).join(' ');
}

function polygon(rings: readonly (readonly Position[])[]): string {
  return `(${rings.map((ring) => `(${ring.map(position).join(', ')})`).join(', ')})`;
}
