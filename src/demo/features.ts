// Features of the demo catalogue: buildings along the streets, places (corners, yards,
// markets), open spaces and GREATER_WHITECHAPEL area features, made in that order (the
// order of the random draws) and grouped as they were entered.
import { makeBuildings } from './buildings.js';
import { FeatureMaker, type ActiveSite, type Draft } from './feature-maker.js';
import { makeAreas, makeOpenSpaces, makePlaces } from './places-and-areas.js';
import type { Rng } from './random.js';

export type { ActiveSite, Draft } from './feature-maker.js';

export interface FeatureCounts {
  buildings: number;
  places: number;
  openSpaces: number;
  areas: number;
}

export function makeFeatures(rng: Rng, counts: FeatureCounts, sites: readonly ActiveSite[], categoryIds: ReadonlyMap<string, number>): Draft[][] {
  const maker = new FeatureMaker(rng, sites, categoryIds);
  return [
    ...makeBuildings(maker, counts.buildings),
    ...makePlaces(maker, counts.places),
    ...makeOpenSpaces(maker, counts.openSpaces),
    ...makeAreas(maker, counts.areas),
  ];
}
