// The shapes of the OGC API – Tiles answers (render/ogc/tiles.ts) as OpenAPI 3.0 schemas,
// after the standard's tileSet, tileSet-item, tileMatrixSet and tileMatrix schemas, cut
// to what this server writes.
import { schemaRef, type JsonObject } from '../components.js';

const string = { type: 'string' };
const number = { type: 'number' };
const integer = { type: 'integer' };
const point = { type: 'array', items: number, minItems: 2, maxItems: 2 };
const object = (required: readonly string[], properties: Record<string, JsonObject>): JsonObject => ({ type: 'object', required, properties });
const links = { type: 'array', items: schemaRef('Link') };
/** A link whose href may be a URL template (`templated`: the tile's link). */
const TILE_LINK = object(['href', 'rel', 'type'], { href: string, rel: string, type: string, title: string, templated: { type: 'boolean' } });
const DATA_TYPE = { type: 'string', enum: ['map', 'vector', 'coverage'] };
const BOUNDING_BOX_PROPERTIES = { lowerLeft: point, upperRight: point, crs: string };
const BOUNDING_BOX = object(['lowerLeft', 'upperRight'], BOUNDING_BOX_PROPERTIES);

const TILE_SET_ITEM = object(['dataType', 'crs', 'links'], { title: string, dataType: DATA_TYPE, crs: string, tileMatrixSetURI: string, links });

const LAYER = object(['id', 'dataType'], {
  id: string,
  description: string,
  dataType: DATA_TYPE,
  geometryDimension: { type: 'integer', minimum: 0, maximum: 3 },
  minTileMatrix: string,
  maxTileMatrix: string,
  propertiesSchema: { type: 'object', description: 'The layer\'s fields, as a JSON Schema.' },
  links,
});

const TILE_SET = object(['dataType', 'crs', 'links'], {
  title: string,
  description: string,
  dataType: DATA_TYPE,
  crs: string,
  tileMatrixSetURI: string,
  mediaTypes: { type: 'array', items: string },
  boundingBox: BOUNDING_BOX,
  centerPoint: object(['coordinates'], { coordinates: point, crs: string, tileMatrix: string }),
  layers: { type: 'array', items: LAYER, minItems: 1 },
  links: { type: 'array', items: TILE_LINK },
});

const TILE_MATRIX = object(['id', 'scaleDenominator', 'cellSize', 'pointOfOrigin', 'tileWidth', 'tileHeight', 'matrixWidth', 'matrixHeight'], {
  id: string,
  scaleDenominator: number,
  cellSize: number,
  cornerOfOrigin: { type: 'string', enum: ['topLeft', 'bottomLeft'] },
  pointOfOrigin: point,
  tileWidth: integer,
  tileHeight: integer,
  matrixWidth: integer,
  matrixHeight: integer,
});

/** A tile matrix in OGC 17-083r2's encoding (TMS 1.0), as GDAL up to 3.6 reads it. */
const TILE_MATRIX_R2 = object(['type', 'identifier', 'scaleDenominator', 'topLeftCorner', 'tileWidth', 'tileHeight', 'matrixWidth', 'matrixHeight'], {
  type: { type: 'string', enum: ['TileMatrixType'] },
  identifier: string,
  scaleDenominator: number,
  topLeftCorner: point,
  tileWidth: integer,
  tileHeight: integer,
  matrixWidth: integer,
  matrixHeight: integer,
});

/** 17-083r4's keys, and beside them 17-083r2's (render/ogc/tiles.ts says why). */
const TILE_MATRIX_SET = object(['crs', 'tileMatrices', 'type', 'identifier', 'supportedCRS', 'tileMatrix'], {
  id: string,
  title: string,
  uri: string,
  crs: string,
  orderedAxes: { type: 'array', items: string },
  wellKnownScaleSet: string,
  boundingBox: { ...BOUNDING_BOX, properties: { ...BOUNDING_BOX_PROPERTIES, type: { type: 'string', enum: ['BoundingBoxType'] }, lowerCorner: point, upperCorner: point } },
  tileMatrices: { type: 'array', items: TILE_MATRIX },
  type: { type: 'string', enum: ['TileMatrixSetType'] },
  identifier: string,
  supportedCRS: string,
  tileMatrix: { type: 'array', items: TILE_MATRIX_R2 },
});

export function ogcTileSchemas(): Record<string, JsonObject> {
  return {
    TileSets: object(['links', 'tilesets'], { links, tilesets: { type: 'array', items: TILE_SET_ITEM } }),
    TileSet: TILE_SET,
    TileMatrixSets: object(['links', 'tileMatrixSets'], {
      links,
      tileMatrixSets: { type: 'array', items: object(['id', 'links'], { id: string, title: string, uri: string, crs: string, links }) },
    }),
    TileMatrixSet: TILE_MATRIX_SET,
  };
}
