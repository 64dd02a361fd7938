// The map's reads (/map/…, the map page, the tiles' overview), as the executor runs them
// (src/work/reads.ts): each a read of the whole catalogue or of a box, a costly read; the
// box's candidates counted in the spatial index and the streets' kept labels, bounded, inline.
import type { ReadDeclaration } from '../../work/reads.js';
import type { Filters } from '../filters.js';
import { boxCandidates, overviewPlan } from '../read-plans.js';
import { wideInIndex } from '../map-view-reads.js';
import type { Overview } from '../store.js';
import { buildingLabelsPlan, streetLabelsPlan, viewMatchesPlan, type Box, type BuildingLabels, type KeptStreets, type ViewFilters, type ViewMatches } from './map-plans.js';

/**
 * The ids of the features the filters match in a view, or none when the view holds more than
 * `atMost` footprints. A view the server's box index finds wide (`wide`) is answered inline,
 * its version read alone: PostgreSQL counted a large view by a sequential scan, which passed
 * an import's emptied pages once in about 40 views (175–460 ms at scale 100, 10 ms otherwise).
 */
export const viewMatchesRead: ReadDeclaration<[filters: ViewFilters, atMost: number, wide?: boolean], ViewMatches> = {
  name: 'viewMatches',
  plan: (dialect, filters, atMost, wide) => viewMatchesPlan(filters, atMost, dialect, wide === true),
  workClass: () => 'reads',
  boundedAfterAll: async (context, filters, atMost) => ((await wideInIndex(context, filters.bbox, atMost)) ? [filters, atMost, true] : null),
};

/** Every street's labels and buildings' count as kept: a row a street, inline (no worker's turn). */
export const streetLabelsRead: ReadDeclaration<[], KeptStreets> = {
  name: 'streetLabels',
  plan: () => streetLabelsPlan(),
  workClass: () => null,
};

/** Numbered or named buildings meeting a box, at most `limit`. */
export const buildingLabelsRead: ReadDeclaration<[box: Box, limit: number], BuildingLabels> = {
  name: 'buildingLabels',
  plan: (dialect, box, limit) => buildingLabelsPlan(box, limit, dialect),
  workClass: () => 'reads',
};

/** What the map page opens with: the footprints' extent and the categories in use. */
export const overviewRead: ReadDeclaration<[], Overview> = {
  name: 'overview',
  plan: (dialect) => overviewPlan(dialect),
  workClass: () => 'reads',
};

/**
 * How many footprints the spatial index finds in the box, counted up to one past `atMost`
 * (an index lookup, bounded, one statement): what tells a map view's page, answered at once,
 * from a wide box's, a costly read (store/ogc/ogc-reads.ts).
 */
export const boxCandidatesRead: ReadDeclaration<[box: readonly [number, number, number, number], atMost: number], number> = {
  name: 'boxCandidates',
  plan: (dialect, box, atMost) => boxCandidates(box, atMost, dialect),
  workClass: () => null,
  options: { oneStatement: true },
};
