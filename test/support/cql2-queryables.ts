// Queryables and dialects shared by the CQL2 unit tests.
import type { SpatialLiteral } from '../../src/ogc/cql2/ast.js';
import { postgresDialect, sqliteDialect, type Queryables } from '../../src/ogc/cql2/sql-dialect.js';

export const QUERYABLES: Queryables = {
  name: { type: 'string', sql: 'f.name' },
  floors: { type: 'integer', sql: 'f.floors' },
  height: { type: 'number', sql: 'f.height' },
  listed: { type: 'boolean', sql: 'f.listed' },
  built: { type: 'date', sql: 'f.built' },
  updated: { type: 'timestamp', sql: 'f.updated' },
  geometry: { type: 'geometry', sql: 'f.geom' },
};

const geoJson = (literal: SpatialLiteral): string =>
  JSON.stringify(literal.kind === 'bbox' ? { bbox: literal.value } : literal.value);

export const SQLITE = sqliteDialect((column, literal, placeholder) => ({
  sql: `footprint_intersects(${column}, ${placeholder(0)})`,
  params: [geoJson(literal)],
}));

export const POSTGRES = postgresDialect((column, literal, placeholder) => ({
  sql: `ST_Intersects(${column}, ST_GeomFromGeoJSON(${placeholder(0)}))`,
  params: [geoJson(literal)],
}));
