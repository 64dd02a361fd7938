// Queryables shared by the CQL2 unit tests, and the filters' SQL through a store's real
// dialect (store/dialect.ts): `$n` placeholders, as every shared query writes them.
import type { MultiPolygon } from '../../src/catalogue/format.js';
import type { Expression } from '../../src/ogc/cql2/ast.js';
import { toSql, type Queryables } from '../../src/ogc/cql2/to-sql.js';
import { binder, type Dialect } from '../../src/store/dialect.js';

/** Columns of a table aliased `f`; the geometry queryable names the alias, as the stores' do. */
export const QUERYABLES: Queryables = {
  name: { type: 'string', sql: 'f.name' },
  floors: { type: 'integer', sql: 'f.floors' },
  height: { type: 'number', sql: 'f.height' },
  listed: { type: 'boolean', sql: 'f.listed' },
  built: { type: 'date', sql: 'f.built' },
  updated: { type: 'timestamp', sql: 'f.updated' },
  geometry: { type: 'geometry', sql: 'f' },
};

export function filterSql(tree: Expression, dialect: Dialect): { sql: string; params: unknown[] } {
  const { bind, params } = binder();
  const sql = toSql(tree, QUERYABLES, dialect, bind);
  return { sql, params };
}

/** Row n's footprint: a square of side 0.2 around (n, n). */
export function squareAround(n: number): MultiPolygon {
  const [lo, hi] = [n - 0.1, n + 0.1];
  return { type: 'MultiPolygon', coordinates: [[[[lo, lo], [hi, lo], [hi, hi], [lo, hi], [lo, lo]]]] };
}
