// `Content-Crs: <uri>` (OGC API – Features Part 2, /req/crs/ogc-crs-header) on every /ogc/
// answer with coordinates: items (pages, pages for people, downloads) and an item, CRS84 too.
// Set as the answer leaves (onSend), so a refusal never carries it, and the fast path, which
// replays the headers Fastify sent, replays it with the answer it belongs to.
import type { FastifyInstance } from 'fastify';
import { OGC_PATHS } from '../../ogc/paths.js';
import { parseCrs } from './items-params.js';
import { readOgcQuery } from './query.js';

/** The routes whose answers hold coordinates. */
const WITH_COORDINATES: ReadonlySet<string> = new Set([OGC_PATHS.items(':collection'), OGC_PATHS.item(':collection', ':featureId')]);

export function registerContentCrs(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    if (route === undefined || !WITH_COORDINATES.has(route) || !((status >= 200 && status < 300) || status === 304)) return payload;
    // A 2xx or 304 was answered: its crs was read and offered.
    reply.header('content-crs', `<${parseCrs('crs', readOgcQuery(request.url)).uri}>`);
    return payload;
  });
}
