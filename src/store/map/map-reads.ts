// The map's reads (/map/…, the map page, the tiles' overview), as the executor runs them
// (src/work/reads.ts): each a read of the whole catalogue or of a box, a costly read; the
// box's candidates counted in the spatial index and the streets' kept labels, bounded, inline.
import type { ReadDeclaration } from '../../work/reads.js';
import type { Filters } from '../filters.js';
import { boxCandidates, overviewPlan } from '../read-plans.js';
import type { Overview } from '../store.js';
import { buildingLabelsPlan, matchIdsPlan, streetLabelsPlan, type Box, type BuildingLabels, type KeptStreets, type MatchIds } from './map-plans.js';

/** The ids of every feature the filters match. */
export const matchIdsRead: ReadDeclaration<[filters: Filters], MatchIds> = {
  name: 'matchIds',
  plan: (dialect, filters) => matchIdsPlan(filters, dialect),
  workClass: () => 'reads',
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
