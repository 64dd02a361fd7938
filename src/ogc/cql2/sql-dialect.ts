// Where SQLite and PostgreSQL differ for a CQL2 filter, and the queryables the caller
// declares. The caller's SQL expressions are its own text, never built from the filter.
import type { SpatialLiteral } from './ast.js';

export type QueryableType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'geometry';

export interface Queryable {
  readonly type: QueryableType;
  /** The SQL that reads the property: a column or a bracketed expression. */
  readonly sql: string;
}

export type Queryables = Readonly<Record<string, Queryable>>;

export interface SqlFragment {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * The spatial test, the caller's: an R*Tree and an exact check on SQLite, PostGIS on
 * PostgreSQL. `placeholder(i)` is the text of the i-th (0-based) of the params it returns.
 * A BBOX has 4 numbers or 6 (west, south, lowest, east, north, highest), CRS84 like the
 * geometries.
 */
export type IntersectsSql = (
  geometryExpression: string,
  geometry: SpatialLiteral,
  placeholder: (index: number) => string,
) => SqlFragment;

export interface SqlDialect {
  /** The text of the parameter at this 0-based position of the filter's params. */
  placeholder(index: number): string;
  /** CASEI. lower() on both sides of a comparison: the catalogue is accent-folded elsewhere. */
  caseFold(sql: string): string;
  /** The standard's case-sensitive LIKE; `pattern` is the placeholder of likePattern(…). */
  like(value: string, pattern: string): string;
  /** A CQL2 pattern (% _ and \ as escape) as the parameter `like` expects. */
  likePattern(pattern: string): string;
  bindBoolean(value: boolean): unknown;
  readonly intersects: IntersectsSql;
}

/**
 * SQLite: its LIKE ignores ASCII case, and `PRAGMA case_sensitive_like` is deprecated and
 * changes every statement of the connection. GLOB is case-sensitive per statement and
 * needs no function registered on the connection, so the pattern is translated to GLOB's
 * syntax: % → *, _ → ?, and GLOB's own *, ? and [ written as one-character classes.
 * SQLite's lower() folds ASCII letters only.
 */
export function sqliteDialect(intersects: IntersectsSql): SqlDialect {
  return {
    placeholder: () => '?',
    caseFold: (sql) => `lower(${sql})`,
    like: (value, pattern) => `${value} GLOB ${pattern}`,
    likePattern: likeToGlob,
    bindBoolean: (value) => (value ? 1 : 0),
    intersects,
  };
}

/** PostgreSQL: LIKE is case-sensitive and its default escape is the backslash, as CQL2's. */
export function postgresDialect(intersects: IntersectsSql, firstParam = 1): SqlDialect {
  return {
    placeholder: (index) => `$${firstParam + index}`,
    caseFold: (sql) => `lower(${sql})`,
    like: (value, pattern) => `${value} LIKE ${pattern}`,
    likePattern: (pattern) => pattern,
    bindBoolean: (value) => value,
    intersects,
  };
}

const GLOB_LITERAL: Readonly<Record<string, string>> = { '*': '[*]', '?': '[?]', '[': '[[]' };
const GLOB_WILDCARD: Readonly<Record<string, string>> = { '%': '*', _: '?' };

/** A CQL2 LIKE pattern (checked: it does not end with a lone escape) as a GLOB pattern. */
export function likeToGlob(pattern: string): string {
  const chars = [...pattern];
  let glob = '';
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] ?? '';
    if (char === '\\') {
      i += 1;
      const escaped = chars[i] ?? '';
      glob += GLOB_LITERAL[escaped] ?? escaped;
    } else {
      glob += GLOB_WILDCARD[char] ?? GLOB_LITERAL[char] ?? char;
    }
  }
  return glob;
}
