// The vector tiles' paths in the OpenAPI document (a PathGroup of document.ts): a tile, and
// the TileJSON describing the tileset.
import { CONTENT_TYPE_JSON, CONTENT_TYPE_MVT, TILEJSON_PATH, TILES_TEMPLATE_PATH } from '../constants.js';
import { ERRORS } from '../errors.js';
import { FULL_PROPERTIES_ZOOM, MAX_TILE_ZOOM } from '../tiles/grid.js';
import { TILE_LAYERS } from '../tiles/layers.js';
import type { JsonObject } from './components.js';
import { errorRef, notModifiedRef } from './responses.js';

const cachingHeaders = {
  ETag: { description: 'Strong: the catalogue version and a hash of the tile; send it back in If-None-Match for a 304.', schema: { type: 'string' }, required: true },
  'Cache-Control': { description: '`public, max-age=60` unless the server is set otherwise (CACHE_CONTROL).', schema: { type: 'string' }, required: true },
};

const coordinate = (name: string, description: string, maximum?: number): JsonObject => ({
  name, in: 'path', required: true, description, schema: { type: 'integer', minimum: 0, ...(maximum === undefined ? {} : { maximum }) },
});

function tileOperation(method: 'get' | 'head'): JsonObject {
  const body = method === 'get' ? { content: { [CONTENT_TYPE_MVT]: { schema: { type: 'string', contentMediaType: CONTENT_TYPE_MVT } } } } : {};
  return {
    operationId: `${method}FeatureTile`,
    tags: ['tiles'],
    summary: 'A vector tile of the features’ footprints',
    description: [
      `A Mapbox Vector Tile (version 2, extent 4096, buffer 64) in web-mercator XYZ numbering, z 0 to ${MAX_TILE_ZOOM}.`,
      ...TILE_LAYERS.map((layer) => `Layer \`${layer.id}\`: ${layer.description} Properties: ${Object.entries(layer.fields).map(([name, field]) => `\`${name}\` (${field.description})`).join(', ')}.`),
      'Cached and tagged like every answer: a new import changes every tile and its ETag. A query string is ignored.',
    ].join('\n\n'),
    responses: {
      200: { description: 'The tile.', headers: cachingHeaders, ...body },
      204: { description: 'No footprint reaches into this tile: no body.', headers: cachingHeaders },
      304: notModifiedRef(),
      400: { ...errorRef(400), description: ERRORS.invalidTile.when },
      503: errorRef(503),
    },
  };
}

const TILEJSON_SCHEMA: JsonObject = {
  type: 'object',
  required: ['tilejson', 'tiles', 'minzoom', 'maxzoom', 'bounds', 'center', 'vector_layers'],
  properties: {
    tilejson: { const: '3.0.0' },
    name: { type: 'string' },
    description: { type: 'string' },
    scheme: { const: 'xyz' },
    tiles: { type: 'array', items: { type: 'string' }, minItems: 1 },
    minzoom: { type: 'integer' },
    maxzoom: { type: 'integer' },
    bounds: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
    center: { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 },
    vector_layers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'fields'],
        properties: { id: { type: 'string' }, description: { type: 'string' }, minzoom: { type: 'integer' }, maxzoom: { type: 'integer' }, fields: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    },
  },
};

function tileJsonOperation(method: 'get' | 'head'): JsonObject {
  const body = method === 'get' ? { content: { [CONTENT_TYPE_JSON]: { schema: TILEJSON_SCHEMA } } } : {};
  return {
    operationId: `${method}FeatureTileJson`,
    tags: ['tiles'],
    summary: 'The tileset as TileJSON 3.0',
    description: `What a map library needs as a vector source \`url\`: the tile URL template, the catalogue's bounds and a centre, zooms 0 to ${MAX_TILE_ZOOM}, and each layer's fields (some only from zoom ${FULL_PROPERTIES_ZOOM}). Shared with any origin like /api/ (CORS_ORIGINS).`,
    responses: {
      200: { description: 'The TileJSON document.', headers: cachingHeaders, ...body },
      304: notModifiedRef(),
      503: errorRef(503),
    },
  };
}

export function tilePaths(): Record<string, JsonObject> {
  return {
    [TILEJSON_PATH]: {
      description: 'GET and HEAD. A method other than GET, HEAD and OPTIONS is answered 405 (the `MethodNotAllowed` response of the components), with `Allow: GET, HEAD`.',
      get: tileJsonOperation('get'),
      head: tileJsonOperation('head'),
    },
    [TILES_TEMPLATE_PATH]: {
      description: 'GET and HEAD. A method other than GET, HEAD and OPTIONS is answered 405 (the `MethodNotAllowed` response of the components), with `Allow: GET, HEAD`.',
      parameters: [
        coordinate('z', `Zoom, 0 to ${MAX_TILE_ZOOM}.`, MAX_TILE_ZOOM),
        coordinate('x', 'Column, 0 to 2^z - 1, from the west.'),
        coordinate('y', 'Row, 0 to 2^z - 1, from the north.'),
      ],
      get: tileOperation('get'),
      head: tileOperation('head'),
    },
  };
}
