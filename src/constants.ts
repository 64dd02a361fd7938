// The wire vocabulary in one place: paths, parameter names, header values.

export const API_PREFIX = '/api/v1/';
export const MEDIA_PREFIX = '/media/';
/** The OpenAPI document, and the reference page that renders it. */
export const OPENAPI_PATH = `${API_PREFIX}openapi.json`;
export const DOCS_PREFIX = '/api/docs/';

export const COLLECTIONS = ['features', 'images', 'documents', 'media'] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** Order in which the API root lists its links (as the original router did). */
export const ROOT_LINK_ORDER: readonly Collection[] = ['features', 'documents', 'images', 'media'];

export const PARAM_PAGE = 'page';
export const PARAM_PAGE_SIZE = 'page_size';
export const PARAM_FORMAT = 'format';
export const FORMAT_VALUES: readonly string[] = ['json', 'api'];
export const LAST_PAGE = 'last';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const CONTENT_TYPE_JSON = 'application/json';
export const CONTENT_TYPE_MVT = 'application/vnd.mapbox-vector-tile';
/** The OpenAPI media type (registered with IANA), with the version of the document. */
export const CONTENT_TYPE_OPENAPI = 'application/vnd.oai.openapi+json;version=3.1';
/** Vector tiles of the features' footprints, the one spelling of their paths (web/ bundles it too). */
/** Everything about the vector tiles: the tiles, and the TileJSON describing them. */
export const TILES_ROOT = '/tiles/';
export const TILES_PREFIX = `${TILES_ROOT}features/`;
/** The TileJSON 3.0 document of the footprints' tileset. */
export const TILEJSON_PATH = `${TILES_ROOT}features.json`;
/** A tile's path as a URL template (MapLibre's, and the OpenAPI path). */
export const TILES_TEMPLATE_PATH = `${TILES_PREFIX}{z}/{x}/{y}.mvt`;
/** The map explorer's own data (http/pages/map-data.ts; web/ bundles them too). */
export const MAP_MATCHES_PATH = '/map/matches.json';
export const MAP_STREETS_PATH = '/map/streets.json';
export const MAP_LABELS_PATH = '/map/labels.json';
/** The built bundles' folder (scripts/build-web.mjs), their names content-hashed. */
export const MAP_ASSETS_PATH = '/map/assets/';
/** At most this many building labels in one answer of MAP_LABELS_PATH. */
export const MAP_LABELS_LIMIT = 500;
export const ALLOW_METHODS = 'GET, HEAD, OPTIONS';
export const VARY_VALUE = 'Accept';
/** On every answer, those too broken for the router included. */
export const NOSNIFF = ['x-content-type-options', 'nosniff'] as const;

/** DRF's defaults, reported by OPTIONS as the original did. */
export const RENDERS: readonly string[] = [CONTENT_TYPE_JSON];
export const PARSES: readonly string[] = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
];

/** OGC API – Features: the landing page and what lies below it. */
export const OGC_PREFIX = '/ogc/';
export const OGC_API_PATH = `${OGC_PREFIX}api`;
export const CONTENT_TYPE_GEOJSON = 'application/geo+json';
/** A IIIF Presentation 3.0 manifest or collection as JSON-LD (its profile the API's context), as the IIIF face answers one asked for so and other faces link it. */
export const CONTENT_TYPE_IIIF_PRESENTATION = 'application/ld+json;profile="http://iiif.io/api/presentation/3/context.json"';
export const CONTENT_TYPE_SCHEMA = 'application/schema+json';
export const CONTENT_TYPE_OPENAPI_30 = 'application/vnd.oai.openapi+json;version=3.0';
/** Items a page when `limit` is not given, and the most (a larger limit is taken as this). */
export const OGC_DEFAULT_LIMIT = 100;
export const OGC_MAX_LIMIT = 10000;
