// JSON Schemas (2020-12) of a collection: its queryables (Part 3), and the schema of its
// items' properties (`describedby`, in the form of OGC API – Features Part 5), both from
// ogc/properties.ts.
import { OGC_PATHS } from '../../ogc/paths.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { COLLECTION_TITLES, propertiesOf, type OgcProperty } from '../../ogc/properties.js';

type PropertySchema = Record<string, unknown>;

const FOOTPRINT: PropertySchema = { title: 'Footprint', format: 'geometry-multipolygon', 'x-ogc-role': 'primary-geometry' };

function propertySchema(property: OgcProperty): PropertySchema {
  const base = property.type === 'date' ? { type: 'string', format: 'date' } : { type: property.type };
  const nullable = property.nullable ? { type: [base.type, 'null'] } : {};
  const role = property.name === 'id' ? { 'x-ogc-role': 'id' } : {};
  return { title: property.title, ...base, ...nullable, ...role };
}

function schema(id: string, title: string, properties: Record<string, PropertySchema>) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    type: 'object',
    title,
    properties,
    additionalProperties: false,
  };
}

export function renderQueryables(baseUrl: string, collection: CatalogueCollection) {
  const properties: Record<string, PropertySchema> = { geometry: FOOTPRINT };
  for (const p of propertiesOf(collection)) if (p.queryable) properties[p.name] = propertySchema(p);
  return schema(`${baseUrl}${OGC_PATHS.queryables(collection)}`, `${COLLECTION_TITLES[collection].title}: queryables`, properties);
}

export function renderItemSchema(baseUrl: string, collection: CatalogueCollection) {
  const properties: Record<string, PropertySchema> = { geometry: FOOTPRINT };
  for (const p of propertiesOf(collection)) properties[p.name] = propertySchema(p);
  return schema(`${baseUrl}${OGC_PATHS.schema(collection)}`, COLLECTION_TITLES[collection].title, properties);
}

/**
 * One item as a GeoJSON Feature (`describedBy`), for GDAL 3.6: it follows only a link with
 * rel `describedBy` spelt so, makes a column of each member of
 * `properties.properties.properties`, and understands only a single `type` there (a list
 * such as `["integer", "null"]` becomes a string column). So a nullable property is written
 * as OpenAPI 3.0 writes it, `nullable: true`, and this schema is in OpenAPI 3.0's dialect
 * of JSON Schema (no `$schema`). The `id` property is declared under `patternProperties`,
 * which GDAL does not read: it makes that column from the first page. Without it GDAL guesses each column from the first page,
 * and a column that is null there becomes a string.
 */
export function renderFeatureSchema(baseUrl: string, collection: CatalogueCollection) {
  const properties: Record<string, PropertySchema> = {};
  const byPattern: Record<string, PropertySchema> = {};
  for (const p of propertiesOf(collection)) {
    const type = p.type === 'date' ? { type: 'string', format: 'date' } : { type: p.type };
    const schema = { title: p.title, ...type, ...(p.nullable ? { nullable: true } : {}) };
    // GDAL takes the `id` column from the first page already and would add it twice.
    if (p.name === 'id') byPattern['^id$'] = schema;
    else properties[p.name] = schema;
  }
  return {
    $id: `${baseUrl}${OGC_PATHS.featureSchema(collection)}`,
    title: `${COLLECTION_TITLES[collection].title}: one item as a GeoJSON Feature`,
    type: 'object',
    required: ['type', 'id', 'geometry', 'properties'],
    properties: {
      type: { type: 'string', enum: ['Feature'] },
      id: { type: 'integer' },
      geometry: { title: 'Footprint (GeoJSON MultiPolygon, longitude and latitude)', type: 'object', nullable: true },
      properties: { type: 'object', properties, patternProperties: byPattern, additionalProperties: false },
    },
  };
}
