// The OGC face's paths, in one place: routes, links and the API definition take them from
// here; those other faces' pages link to are the page layer's (pages/paths.ts).
import { OGC_API_PATH, OGC_PREFIX } from '../constants.js';
import type { CatalogueCollection } from '../catalogue/collections.js';
import { LINKED_PATHS } from '../pages/paths.js';

export const OGC_PATHS = {
  landing: LINKED_PATHS.ogcLanding,
  api: OGC_API_PATH,
  docs: LINKED_PATHS.ogcDocs,
  conformance: `${OGC_PREFIX}conformance`,
  collections: `${OGC_PREFIX}collections`,
  collection: (id: CatalogueCollection | ':collection') => `${OGC_PREFIX}collections/${id}`,
  items: LINKED_PATHS.ogcItems,
  item: LINKED_PATHS.ogcItem,
  queryables: (id: CatalogueCollection | ':collection') => `${OGC_PREFIX}collections/${id}/queryables`,
  schema: (id: CatalogueCollection | ':collection') => `${OGC_PREFIX}collections/${id}/schema`,
  /** One item as a GeoJSON Feature, the schema form GDAL 3.6 reads (render/ogc/schemas.ts). */
  featureSchema: (id: CatalogueCollection | ':collection') => `${OGC_PREFIX}collections/${id}/feature-schema`,
  /** OGC API – Tiles: the collection's tilesets (the `features` collection only), and the one tileset. */
  tilesets: (id: CatalogueCollection | ':collection') => `${OGC_PREFIX}collections/${id}/tiles`,
  tileset: (id: CatalogueCollection | ':collection', tms: string) => `${OGC_PREFIX}collections/${id}/tiles/${tms}`,
  tileMatrixSets: `${OGC_PREFIX}tileMatrixSets`,
  tileMatrixSet: (tms: string) => `${OGC_PREFIX}tileMatrixSets/${tms}`,
} as const;

/** The one tile matrix set of the tiles, and the one collection tiled. */
export const WEB_MERCATOR_QUAD = 'WebMercatorQuad';
export const TILED_COLLECTION: CatalogueCollection = 'features';
export const TILESETS_VECTOR_REL = 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector';
/** A tileset's link to its tile matrix set's definition, and the landing page's to the list of them. */
export const TILING_SCHEME_REL = 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme';
export const TILING_SCHEMES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes';
export const GEODATA_REL = 'http://www.opengis.net/def/rel/ogc/1.0/geodata';
export const EPSG_3857 = 'http://www.opengis.net/def/crs/EPSG/0/3857';

/** The classes this server declares and meets (the OGC's URIs). */
export const CONFORMANCE_CLASSES: readonly string[] = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-json',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
  'http://www.opengis.net/spec/cql2/1.0/conf/advanced-comparison-operators',
  'http://www.opengis.net/spec/cql2/1.0/conf/case-insensitive-comparison',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions',
  'http://www.opengis.net/spec/ogcapi-records-1/1.0/conf/sorting',
  'http://www.opengis.net/spec/ogcapi-features-6/1.0/conf/property-selection',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/geodata-tilesets',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/mvt',
];

export const QUERYABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/queryables';
export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
