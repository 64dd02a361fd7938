// The map explorer's own data, beside /api/v1/ (whose answers never change): every id a
// search matches, street labels and building labels. Cached per catalogue version like
// any answer; a malformed parameter is the API's 400.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAP_LABELS_LIMIT, MAP_LABELS_PATH, MAP_MATCHES_PATH, MAP_STREETS_PATH } from '../../constants.js';
import { ERRORS } from '../../errors.js';
import { renderBuildingLabels, renderStreetLabels } from '../../render/map-labels.js';
import type { CatalogueReader } from '../../store/store.js';
import { parseFilters } from '../api/filters.js';
import { parseQuery } from '../api/params.js';
import { cachedAnswer, sendAnswer, type AnswerDeps } from '../cache/answers.js';

export interface MapDataDeps extends AnswerDeps {
  store: CatalogueReader;
}

type Render = (request: FastifyRequest) => Promise<{ version: number; body: unknown }>;

export function registerMapData(app: FastifyInstance, deps: MapDataDeps): void {
  route(app, deps, MAP_MATCHES_PATH, async (request) => {
    // The API's own finding-things parameters, checked by the same parser.
    const { version, ids, extent } = await deps.store.matchIds(parseFilters('features', parseQuery(request.url)));
    return { version, body: { count: ids.length, extent, ids } };
  });
  route(app, deps, MAP_STREETS_PATH, async () => {
    const { version, streets } = await deps.store.streetBuildings();
    return { version, body: { streets: renderStreetLabels(streets) } };
  });
  route(app, deps, MAP_LABELS_PATH, async (request) => {
    const { bbox } = parseFilters('features', parseQuery(request.url));
    if (!bbox) throw ERRORS.invalidFilter('bbox', 'minLon,minLat,maxLon,maxLat: the box to label');
    const { version, buildings } = await deps.store.buildingLabels([...bbox], MAP_LABELS_LIMIT);
    return { version, body: { buildings: renderBuildingLabels(buildings) } };
  });
}

function route(app: FastifyInstance, deps: MapDataDeps, path: string, render: Render): void {
  app.get(path, async (request, reply) => {
    const key = `${request.baseUrl}\n${request.url}`;
    const answer = await cachedAnswer(deps, key, () => render(request));
    return sendAnswer(request, reply, deps, key, answer);
  });
}
