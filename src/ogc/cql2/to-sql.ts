// AST → an SQL condition with bound parameters only: every literal of the filter becomes a
// parameter, every property the caller's own SQL text. The types are checked on the way:
// a comparison of different types, LIKE on a non-string or S_INTERSECTS on a non-geometry
// is refused naming the property and the types, and so is a number an integer property
// cannot hold (PostgreSQL would fail on it) or one that is not finite. SQL's three-valued
// logic is CQL2's, so NULL properties need no special case. The result is safe to join
// with AND: an OR is always bracketed.
import type { Comparison, Expression, Scalar, SpatialLiteral, SpatialOperand } from './ast.js';
import { escapeLike } from './literals.js';
import { Cql2Error, listInWords } from './errors.js';
import { scalar as scalarText } from './to-text.js';
import type { Bind } from '../../store/dialect.js';
import { isStoredInteger, STORED_INTEGER } from '../../store/stored-values.js';

export type QueryableType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'geometry';

export interface Queryable {
  readonly type: QueryableType;
  /** The SQL that reads the property: a column or a bracketed expression; for a geometry, what the dialect's `intersects` takes. */
  readonly sql: string;
  readonly textIndex?: TextIndex;
}

/**
 * A text property also kept in a table whose index serves LIKE (any wildcard): the condition
 * "the row's value passes `test`", `test` given that table's column. LIKE and `=` on the
 * property go through it, rather than reading the property for every row.
 */
export type TextIndex = (test: (column: string) => string) => string;

export type Queryables = Readonly<Record<string, Queryable>>;

/**
 * Where the stores differ for a filter: the store's Dialect (store/dialect.ts) is one. Literals
 * reach SQL only through `bind`, the store's parameter list.
 */
export interface Cql2Dialect {
  /** CASEI: both sides of a comparison folded to lower case. */
  caseFold(sql: string): string;
  /** A sort key's SQL, text compared by code point on both stores (PostgreSQL's collation would differ). */
  sortKey(sql: string, text: boolean): string;
  /** The standard's case-sensitive LIKE; `pattern` is the placeholder of likePattern(…). */
  like(value: string, pattern: string): string;
  /** A CQL2 pattern (% _ and \ as escape) as the parameter `like` expects. */
  likePattern(pattern: string): string;
  bindBoolean(value: boolean): unknown;
  /** The column of a geometry queryable's SQL (for IS NULL). */
  geometryColumn(alias: string): string;
  /** S_INTERSECTS of a geometry queryable's SQL and a literal (a BBOX has 4 or 6 numbers, CRS84). */
  intersects(geometry: string, literal: SpatialLiteral, bind: Bind): string;
}

type ValueType = 'string' | 'number' | 'boolean' | 'date' | 'timestamp' | 'geometry';

interface Typed {
  readonly sql: string;
  readonly type: ValueType;
  readonly described: string;
  /** A property's SQL (or CASEI of one): it gives the literals beside it their SQL type. */
  readonly reads: boolean;
  /** The property is an integer. */
  readonly integer?: boolean;
  /** A number literal's value. */
  readonly number?: number;
  /** A literal's type in SQL, where no property gives it one. */
  readonly sqlType?: string;
}

/**
 * Types both stores know by these names (SQLite by affinity: REAL, TEXT, NUMERIC): without one,
 * PostgreSQL reads `$1 < $2` as text ('2' < '10' false) and cannot type `$1 IS NULL`.
 */
const SQL_TYPES: Readonly<Partial<Record<ValueType, string>>> = {
  number: 'DOUBLE PRECISION', string: 'TEXT', date: 'TEXT', timestamp: 'TEXT', boolean: 'BOOLEAN',
};

interface Translation {
  readonly queryables: Queryables;
  readonly dialect: Cql2Dialect;
  readonly param: Bind;
}

/** The filter as one SQL condition, its literals added to the caller's parameters through `bind`. */
export function toSql(expression: Expression, queryables: Queryables, dialect: Cql2Dialect, bind: Bind): string {
  return condition(expression, { queryables, dialect, param: bind });
}

function condition(expression: Expression, t: Translation): string {
  switch (expression.kind) {
    case 'and': return expression.args.map((arg) => nested(arg, t, ['and'])).join(' AND ');
    case 'or': return `(${expression.args.map((arg) => nested(arg, t, ['and'])).join(' OR ')})`;
    case 'not': return `NOT ${nested(expression.arg, t, ['and', 'not'])}`;
    case 'compare': {
      const indexed = indexedEquality(expression, t);
      if (indexed !== undefined) return indexed;
      const { sql: [left, right], type } = operands([expression.left, expression.right], `"${expression.op}"`, t);
      // Text compares by code point on both stores, whatever the database's collation (CASEI's fold already does).
      const key = expression.left.kind === 'casei' ? left : t.dialect.sortKey(left ?? '', type === 'string');
      return `${key} ${expression.op} ${right}`;
    }
    case 'like': return like(expression.value, expression.pattern, t);
    case 'between': {
      const { sql: [value, low, high] } = operands([expression.value, expression.low, expression.high], 'BETWEEN', t, ['number']);
      return `${value} BETWEEN ${low} AND ${high}`;
    }
    case 'in': {
      // PostgreSQL types a list's literals together before the value: by the value alone, then.
      const { sql: [value, ...list] } = operands([expression.value, ...expression.list], 'IN', t, undefined, (typed) => typed[0]?.reads === true);
      return `${value} IN (${list.join(', ')})`;
    }
    case 'isNull': {
      const value = operand(expression.value, t);
      checkNumbers([value]);
      return `${typedSql(value, value.reads)} IS NULL`;
    }
    case 'intersects': return intersects(expression.left, expression.right, t);
    case 'boolean': return expression.value ? 'TRUE' : 'FALSE';
  }
}

/** NOT binds tighter than AND in SQL; an AND inside AND, OR or NOT is bracketed to keep
 * the tree's shape, NOT NOT too for the reader (an OR always is). */
function nested(expression: Expression, t: Translation, bracketed: readonly Expression['kind'][]): string {
  const sql = condition(expression, t);
  return bracketed.includes(expression.kind) ? `(${sql})` : sql;
}

function queryable(name: string, t: Translation): Queryable {
  const found = Object.hasOwn(t.queryables, name) ? t.queryables[name] : undefined;
  if (found !== undefined) return found;
  const known = Object.keys(t.queryables).map((key) => JSON.stringify(key));
  throw new Cql2Error(`The filter names the property ${JSON.stringify(name)}, which is not a queryable; the queryables are ${listInWords(known, 'and')}.`);
}

/**
 * The operands of one predicate, their types checked, as SQL; and their one type. Literals are
 * typed in SQL unless `typedByProperty` (by default: a property is among the operands).
 */
function operands(
  values: readonly Scalar[], operator: string, t: Translation, allowed?: readonly ValueType[],
  typedByProperty = (typed: readonly Typed[]) => typed.some((o) => o.reads),
): { sql: string[]; type: ValueType | undefined } {
  const typed = values.map((value) => operand(value, t));
  sameType(typed, operator, allowed);
  checkNumbers(typed);
  const besideProperty = typedByProperty(typed);
  return { sql: typed.map((o) => typedSql(o, besideProperty)), type: typed[0]?.type };
}

/** A literal's SQL, typed when no property beside it types it. */
function typedSql(typed: Typed, besideProperty: boolean): string {
  return besideProperty || typed.sqlType === undefined ? typed.sql : `CAST(${typed.sql} AS ${typed.sqlType})`;
}

function operand(value: Scalar, t: Translation): Typed {
  switch (value.kind) {
    case 'property': {
      const { sql, type } = queryable(value.name, t);
      const valueType = type === 'integer' ? 'number' : type;
      const described = `the property ${JSON.stringify(value.name)} (${article(type)})`;
      return { sql: type === 'geometry' ? t.dialect.geometryColumn(sql) : sql, type: valueType, described, reads: true, integer: type === 'integer' };
    }
    case 'casei': {
      const arg = operand(value.arg, t);
      if (arg.type !== 'string') throw new Cql2Error(`CASEI needs a string, but ${arg.described} is not one.`);
      return { sql: t.dialect.caseFold(arg.sql), type: 'string', described: arg.described, reads: arg.reads };
    }
    case 'boolean': return literal(t.dialect.bindBoolean(value.value), value, t);
    default: return literal(value.value, value, t);
  }
}

function literal(bound: unknown, value: Exclude<Scalar, { kind: 'property' | 'casei' }>, t: Translation): Typed {
  const number = value.kind === 'number' ? { number: value.value } : {};
  return { sql: t.param(bound), type: value.kind, described: `${article(value.kind)} (${scalarText(value)})`, reads: false, sqlType: SQL_TYPES[value.kind], ...number };
}

/** Numbers an integer property beside them can hold (a whole number in its range), else finite ones. */
function checkNumbers(typed: readonly Typed[]): void {
  const integer = typed.find((o) => o.integer === true);
  for (const { number } of typed) {
    if (number === undefined) continue;
    if (integer !== undefined && !isStoredInteger(number)) {
      throw new Cql2Error(`The filter compares ${integer.described} with ${numberText(number)}, but it holds whole numbers from ${STORED_INTEGER.min} to ${STORED_INTEGER.max} only.`);
    }
    if (!Number.isFinite(number)) throw new Cql2Error(`The filter holds ${numberText(number)}; numbers must be finite.`);
  }
}

/** 1e999 is read as Infinity: said as what it is. */
function numberText(value: number): string {
  return Number.isFinite(value) ? String(value) : `a number beyond ${value < 0 ? '-' : ''}1.8e308`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The operands of one comparison share a type (CQL2 compares literals of one type). */
function sameType(typed: readonly Typed[], operator: string, allowed?: readonly ValueType[]): void {
  const first = typed[0];
  for (const other of typed) {
    if (other.type === 'geometry') throw new Cql2Error(`${operator} cannot compare ${other.described}; use S_INTERSECTS.`);
    if (allowed !== undefined && !allowed.includes(other.type)) {
      throw new Cql2Error(`${operator} compares numbers, but ${other.described} is not a number.`);
    }
    if (first !== undefined && other.type !== first.type) {
      throw new Cql2Error(`${operator} cannot compare ${first.described} with ${other.described}.`);
    }
  }
}

function like(value: Scalar, pattern: Scalar, t: Translation): string {
  const subject = operand(value, t);
  if (subject.type !== 'string') throw new Cql2Error(`LIKE needs a string, but ${subject.described} is not one.`);
  const patternSql = likePattern(pattern, t);
  const index = textIndexOf(value, t);
  return index === undefined ? t.dialect.like(subject.sql, patternSql) : index((column) => t.dialect.like(column, patternSql));
}

/** The text index of a property operand (not of CASEI of one: the index holds the value as it is). */
function textIndexOf(value: Scalar, t: Translation): TextIndex | undefined {
  return value.kind === 'property' ? queryable(value.name, t).textIndex : undefined;
}

/** `property = 'text'` of an indexed property, as the LIKE pattern matching that text alone (the same rows), through the index. */
function indexedEquality({ op, left, right }: Comparison, t: Translation): string | undefined {
  if (op !== '=') return undefined;
  const [property, text] = left.kind === 'string' ? [right, left] : [left, right];
  if (textIndexOf(property, t) === undefined || text.kind !== 'string') return undefined;
  return like(property, { kind: 'string', value: escapeLike(text.value) }, t);
}

function likePattern(pattern: Scalar, t: Translation): string {
  if (pattern.kind === 'casei') return t.dialect.caseFold(likePattern(pattern.arg, t));
  if (pattern.kind !== 'string') throw new Cql2Error('A LIKE pattern is a string in single quotes, or CASEI of one.');
  if (/(?:^|[^\\])(?:\\\\)*\\$/u.test(pattern.value)) {
    throw new Cql2Error(`The LIKE pattern ${JSON.stringify(pattern.value)} ends with the escape character \\; write \\\\ for a backslash.`);
  }
  return t.param(t.dialect.likePattern(pattern.value));
}

function intersects(left: SpatialOperand, right: SpatialOperand, t: Translation): string {
  const [property, geometry] = left.kind === 'property' ? [left, right] : [right, left];
  if (property.kind !== 'property' || geometry.kind === 'property') {
    throw new Cql2Error('S_INTERSECTS compares a geometry property with a POINT, POLYGON, MULTIPOLYGON or BBOX.');
  }
  const { sql, type } = queryable(property.name, t);
  if (type !== 'geometry') {
    throw new Cql2Error(`S_INTERSECTS needs a geometry, but the property ${JSON.stringify(property.name)} is ${article(type)}.`);
  }
  return t.dialect.intersects(sql, geometry, t.param);
}
