// The vector tiles' path in the OpenAPI document (a PathGroup of document.ts).
import { CONTENT_TYPE_MVT, TILES_TEMPLATE_PATH } from '../constants.js';
import { ERRORS } from '../errors.js';
import { MAX_TILE_ZOOM } from '../tiles/grid.js';
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
      'One layer, `features`: each footprint as a polygon, with the feature id as MVT id and the properties `id` (integer), `feature_type`, `category` and `category_id` (the first category, absent when none) and `b_name` (absent when null).',
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

export function tilePaths(): Record<string, JsonObject> {
  return {
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
