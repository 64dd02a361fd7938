// The IIIF face's reads as the executor runs them (src/work/reads.ts).
import type { ReadDeclaration } from '../../work/reads.js';
import { picturedBuildingsPlan, type PicturedBuildings } from './iiif-plans.js';

/** A page of the buildings with pictures: a count and an offset over every feature, a costly read. */
export const picturedBuildingsRead: ReadDeclaration<[offset: number, limit: number], PicturedBuildings> = {
  name: 'picturedBuildings',
  plan: (_dialect, offset, limit) => picturedBuildingsPlan(offset, limit),
  workClass: () => 'reads',
};
