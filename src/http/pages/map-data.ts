// The map explorer's own data, beside /api/v1/ (whose answers never change): the ids a
// search matches in a view, street labels and building labels. Cached per catalogue version like
// any answer, under what the answer depends on (the parsed search, the box; for streets
// nothing), not the raw URL: a query string varied at each request (`?x=1`, `?x=2`, …) would otherwise have every
// one computed again. None of them holds a URL, so the Host is not in the key either.
// A malformed parameter is the API's 400.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAP_LABELS_LIMIT, MAP_LABELS_PATH, MAP_MATCHES_PATH, MAP_STREETS_PATH } from '../../constants.js';
import { ERRORS } from '../../errors.js';
import { renderBuildingLabels } from '../../render/map-labels.js';
import type { ServedStore } from '../../work/reads.js';
import { parseFilters } from '../api/filters.js';
import { parseQuery } from '../api/params.js';
import { cachedAnswer, sendAnswer, type AnswerDeps } from '../cache/answers.js';
import { buildingLabelsRead, streetLabelsRead, viewMatchesRead } from '../../store/map/map-reads.js';

export interface MapDataDeps extends AnswerDeps {
  store: ServedStore;
}

/** What an answer depends on (its cache key, below its path) and how to make it. */
type Prepare = (request: FastifyRequest) => { depends: string; render: () => Promise<{ version: number; body: unknown }> };

export function registerMapData(app: FastifyInstance, deps: MapDataDeps): void {
  route(app, deps, MAP_MATCHES_PATH, (request) => {
    // The API's own finding-things parameters, checked by the same parser; plain values in a
    // fixed order, so their JSON names the search. The view's box is needed: the answer is
    // the matches the map draws, bounded by the view, never every match of the catalogue.
    const filters = parseFilters('features', parseQuery(request.url));
    const { bbox } = filters;
    if (!bbox) throw ERRORS.invalidFilter('bbox', 'minLon,minLat,maxLon,maxLat: the view to outline matches in');
    return {
      depends: JSON.stringify(filters),
      render: async () => {
        const { version, wide, ids } = await deps.store.ask(viewMatchesRead, { ...filters, bbox }, deps.config.mapMatchesViewFootprints);
        return { version, body: { wide, count: ids.length, ids } };
      },
    };
  });
  route(app, deps, MAP_STREETS_PATH, () => ({
    depends: '',
    render: async () => {
      const { version, streets } = await deps.store.ask(streetLabelsRead);
      return { version, body: { streets: streets.flatMap((s) => s.labels) } };
    },
  }));
  route(app, deps, MAP_LABELS_PATH, (request) => {
    const { bbox } = parseFilters('features', parseQuery(request.url));
    if (!bbox) throw ERRORS.invalidFilter('bbox', 'minLon,minLat,maxLon,maxLat: the box to label');
    return {
      depends: bbox.join(','),
      render: async () => {
        const { version, buildings } = await deps.store.ask(buildingLabelsRead, [...bbox], MAP_LABELS_LIMIT);
        return { version, body: { buildings: renderBuildingLabels(buildings) } };
      },
    };
  });
}

function route(app: FastifyInstance, deps: MapDataDeps, path: string, prepare: Prepare): void {
  app.get(path, async (request, reply) => {
    const { depends, render } = prepare(request);
    const key = `${path}\n${depends}`;
    const answer = await cachedAnswer(deps, key, render);
    return sendAnswer(request, reply, deps, key, answer);
  });
}
