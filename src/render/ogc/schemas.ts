// JSON Schemas (2020-12) of a collection: its queryables (Part 3), and the schema of its
// items' properties (`describedby`, in the form of OGC API – Features Part 5), both from
// ogc/properties.ts.
import { OGC_PATHS } from '../../ogc/paths.js';
import { COLLECTION_TITLES, propertiesOf, type OgcCollection, type OgcProperty } from '../../ogc/properties.js';

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

export function renderQueryables(baseUrl: string, collection: OgcCollection) {
  const properties: Record<string, PropertySchema> = { geometry: FOOTPRINT };
  for (const p of propertiesOf(collection)) if (p.queryable) properties[p.name] = propertySchema(p);
  return schema(`${baseUrl}${OGC_PATHS.queryables(collection)}`, `${COLLECTION_TITLES[collection].title}: queryables`, properties);
}

export function renderItemSchema(baseUrl: string, collection: OgcCollection) {
  const properties: Record<string, PropertySchema> = { geometry: FOOTPRINT };
  for (const p of propertiesOf(collection)) properties[p.name] = propertySchema(p);
  return schema(`${baseUrl}${OGC_PATHS.schema(collection)}`, COLLECTION_TITLES[collection].title, properties);
}
