// GET /tiles/features/{z}/{x}/{y}.mvt: the footprints as a Mapbox Vector Tile, cached and
// tagged like every other answer. An empty tile is 204; anything under the prefix that
// is not a tile of the grid is a 400. GET /tiles/features.json: the tileset as TileJSON 3.0.
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { CONTENT_TYPE_MVT, TILEJSON_PATH, TILES_PREFIX } from '../../constants.js';
import { renderTileJson } from '../../render/tilejson.js';
import { isTileAddress, type TileAddress } from '../../tiles/grid.js';
import type { CatalogueReader } from '../../store/store.js';
import { cachedAnswer, cachedBytes, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { ERRORS } from '../../errors.js';

export interface TileDeps extends AnswerDeps {
  store: CatalogueReader;
}

const TILE_PATH = /^(\d{1,8})\/(\d{1,8})\/(\d{1,8})\.mvt$/;
const TILE_METHODS = 'GET, HEAD';

export function registerTileRoutes(app: FastifyInstance, deps: TileDeps): void {
  readOnly(app, `${TILES_PREFIX}*`, tileHandler(deps));
  readOnly(app, TILEJSON_PATH, async (request, reply) => {
    const key = `${request.baseUrl}\n${TILEJSON_PATH}`;
    const answer = await cachedAnswer(deps, key, async () => {
      const { version, extent } = await deps.store.overview();
      return { version, body: renderTileJson(request.baseUrl, extent) };
    });
    return sendAnswer(request, reply, deps, key, answer);
  });
}

function readOnly(app: FastifyInstance, url: string, handler: RouteHandlerMethod): void {
  app.get(url, handler);
  // OPTIONS stays with whoever answers preflights (CORS); other methods are refused.
  const otherMethods = app.supportedMethods.filter((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m));
  app.route({
    method: otherMethods,
    url,
    onRequest: async (request, reply) => {
      reply.header('allow', TILE_METHODS);
      throw ERRORS.methodNotAllowed(request.method);
    },
    handler: async () => undefined,
  });
}

/** The tile a path names (the raw path, so that encoded or doubled characters never pass). */
export function parseTilePath(url: string): TileAddress {
  const query = url.indexOf('?');
  const path = (query === -1 ? url : url.slice(0, query)).slice(TILES_PREFIX.length);
  const match = TILE_PATH.exec(path);
  const tile = match ? { z: Number(match[1]), x: Number(match[2]), y: Number(match[3]) } : null;
  if (tile === null || !isTileAddress(tile)) throw ERRORS.invalidTile();
  return tile;
}

function tileHandler(deps: TileDeps): RouteHandlerMethod {
  return async (request: FastifyRequest, reply) => {
    const { z, x, y } = parseTilePath(request.url);
    // A tile depends on the catalogue only: not on the host, nor on any query string.
    const key = `tile\n${z}/${x}/${y}`;
    const answer = await cachedBytes(deps, key, async () => {
      const { version, bytes } = await deps.store.tile(z, x, y);
      return { version, bytes: bytes ?? Buffer.alloc(0), contentType: CONTENT_TYPE_MVT };
    });
    return sendAnswer(request, reply, deps, key, answer);
  };
}
