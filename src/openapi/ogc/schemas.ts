// The shapes of /ogc/ answers as OpenAPI 3.0 schemas (`#/components/schemas/…`): the fixed
// ones (links, landing page, collections, the OGC exception) and, per collection, its items'
// typed properties from ogc/properties.ts, so a client sees the same columns GDAL makes.
import { CONTENT_TYPE_GEOJSON } from '../../constants.js';
import { CATALOGUE_COLLECTIONS, type CatalogueCollection } from '../../catalogue/collections.js';
import { COLLECTION_TITLES, propertiesOf, TEMPORAL_PROPERTY, type OgcProperty } from '../../ogc/properties.js';
import { schemaRef, type JsonObject } from '../components.js';
import { ogcTileSchemas } from './tile-schemas.js';

const string = (description?: string): JsonObject => (description === undefined ? { type: 'string' } : { type: 'string', description });
const arrayOf = (items: JsonObject, more: JsonObject = {}): JsonObject => ({ type: 'array', items, ...more });
const object = (required: readonly string[], properties: Record<string, JsonObject>, more: JsonObject = {}): JsonObject => ({
  type: 'object',
  ...(required.length > 0 ? { required } : {}),
  properties,
  ...more,
});

/** `features` → `Features`: the prefix of a collection's component names. */
export const componentPrefix = (collection: CatalogueCollection) => collection.charAt(0).toUpperCase() + collection.slice(1);
export const itemSchemaName = (collection: CatalogueCollection) => `${componentPrefix(collection)}Item`;
export const itemsSchemaName = (collection: CatalogueCollection) => `${componentPrefix(collection)}Items`;

const LINK = object(['href', 'rel', 'type'], {
  href: { type: 'string', format: 'uri' },
  rel: string('The relation: self, alternate, next, prev, collection, items, describedby…'),
  type: string('The media type of the target.'),
  title: string(),
});
const links = () => arrayOf(schemaRef('Link'));

const BBOX = arrayOf({ type: 'number' }, { minItems: 4, maxItems: 4, description: 'west, south, east, north in CRS84 (longitude, latitude).' });
const EXTENT = object(['spatial'], {
  spatial: object(['bbox'], { bbox: arrayOf(BBOX, { minItems: 1 }), crs: string() }),
  temporal: object(['interval'], {
    interval: arrayOf(arrayOf({ ...string(), format: 'date-time', nullable: true }, { minItems: 2, maxItems: 2 }), { minItems: 1 }),
    trs: string(),
  }),
});

const COLLECTION = object(['id', 'links', 'extent'], {
  id: { type: 'string', enum: [...CATALOGUE_COLLECTIONS] },
  title: string(),
  description: string(),
  links: links(),
  extent: schemaRef('Extent'),
  itemType: { type: 'string', enum: ['feature'] },
  crs: arrayOf(string()),
  storageCrs: string(),
});

/** A queryables or item schema document: JSON Schema 2020-12 (described, not restated). */
const JSON_SCHEMA = object(['$schema', '$id', 'type', 'properties'], {
  $schema: string(),
  $id: { type: 'string', format: 'uri' },
  type: { type: 'string', enum: ['object'] },
  title: string(),
  properties: { type: 'object', additionalProperties: { type: 'object' } },
  additionalProperties: { type: 'boolean' },
}, { description: 'A JSON Schema (2020-12) of the collection\'s properties: each with a title and a type; the footprint as `format: geometry-multipolygon`.' });

const FEATURE_SCHEMA = object(['type', 'properties'], {
  type: { type: 'string', enum: ['object'] },
  title: string(),
  properties: { type: 'object', additionalProperties: { type: 'object' } },
  patternProperties: { type: 'object' },
}, { description: "A schema of a whole item, a GeoJSON Feature, in the form GDAL 3.6 reads (`describedBy`): the item's properties under `properties.properties`, nullable types as OpenAPI 3.0 writes them." });

const POSITION = arrayOf({ type: 'number' }, { minItems: 2 });
const MULTIPOLYGON = object(['type', 'coordinates'], {
  type: { type: 'string', enum: ['MultiPolygon'] },
  coordinates: arrayOf(arrayOf(arrayOf(POSITION, { minItems: 4 }))),
}, { description: 'The footprint (a record\'s: its building\'s or place\'s), longitude and latitude in CRS84; null with `skipGeometry=true`.', nullable: true });

/** The schema of a property, as the queryables and the item schema type it. */
export function propertyTypeSchema(property: OgcProperty): JsonObject {
  return property.type === 'date' ? { type: 'string', format: 'date' } : { type: property.type };
}

function itemSchema(collection: CatalogueCollection): JsonObject {
  const properties = Object.fromEntries(
    propertiesOf(collection).map((p) => [p.name, { ...propertyTypeSchema(p), description: p.title, ...(p.nullable ? { nullable: true } : {}) }]),
  );
  return object(['type', 'id', 'geometry', 'properties'], {
    type: { type: 'string', enum: ['Feature'] },
    id: { type: 'integer', minimum: 0, description: 'The catalogue id (also the `id` property).' },
    geometry: schemaRef('Footprint'),
    properties: object([], properties, { additionalProperties: false, description: 'Every property, or those `properties` names.' }),
    links: links(),
  }, { description: `One of ${COLLECTION_TITLES[collection].title.toLowerCase()} as a GeoJSON feature; alone (items/{featureId}), with its links.` });
}

function itemsSchema(collection: CatalogueCollection): JsonObject {
  return object(['type', 'features', 'links', 'numberMatched', 'numberReturned', 'timeStamp'], {
    type: { type: 'string', enum: ['FeatureCollection'] },
    numberMatched: { type: 'integer', minimum: 0, description: 'Every item the query matches, counted exactly.' },
    numberReturned: { type: 'integer', minimum: 0 },
    timeStamp: { type: 'string', format: 'date-time' },
    links: { ...links(), description: `self, alternate (\`f=json\`), next and prev when there are more (typed ${CONTENT_TYPE_GEOJSON}: they keep every parameter), collection.` },
    features: arrayOf(schemaRef(itemSchemaName(collection))),
  });
}

export function ogcComponentSchemas(): Record<string, JsonObject> {
  const perCollection = CATALOGUE_COLLECTIONS.flatMap((c) => [
    [itemSchemaName(c), itemSchema(c)],
    [itemsSchemaName(c), itemsSchema(c)],
  ]);
  return {
    Exception: object(['code', 'description'], {
      code: string('The OGC exception code: InvalidParameterValue, NotFound, MethodNotAllowed…'),
      description: string('What was wrong, naming the parameter.'),
    }, { description: 'The body of every error on /ogc/ (the OGC API exception schema).' }),
    Link: LINK,
    LandingPage: object(['links'], { title: string(), description: string(), links: links() }),
    ConfClasses: object(['conformsTo'], { conformsTo: arrayOf(string()) }),
    Extent: EXTENT,
    Collection: COLLECTION,
    Collections: object(['links', 'collections'], { links: links(), collections: arrayOf(schemaRef('Collection')) }),
    JsonSchema: JSON_SCHEMA,
    FeatureSchema: FEATURE_SCHEMA,
    OpenApiDocument: { type: 'object', required: ['openapi', 'info', 'paths'], description: 'This document (OpenAPI 3.0).' },
    Footprint: MULTIPOLYGON,
    ...ogcTileSchemas(),
    ...Object.fromEntries(perCollection),
  };
}

/** What `datetime` filters on, for a collection's parameter description. */
export function temporalSentence(collection: CatalogueCollection): string {
  const property = TEMPORAL_PROPERTY[collection];
  if (property === null) return 'these records have no date: every one matches (an invalid value is still refused)';
  const undated = '; items without one match too (OGC /req/core/fc-time-response C)';
  return property === 'current'
    ? `on the year \`current\`: an instant matches its year, an interval the years from its start's to its end's${undated}`
    : `on the date \`${property}\`: an instant matches its day (UTC), an interval the days from its start's to its end's${undated}`;
}
