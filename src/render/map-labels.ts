// The map explorer's building labels, drawn by the page as HTML (no glyph server): a
// building's number (or name) at its footprint's centre. The streets' labels are placed
// when the catalogue changes and kept (store/apply/street-labels.ts).
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import { round } from '../store/apply/street-labels.js';
import type { Box, LabelledBuilding } from '../store/map/map-plans.js';

export type { StreetLabel } from '../store/apply/street-labels.js';

export interface BuildingLabel {
  id: number;
  text: string;
  lon: number;
  lat: number;
}

/** The number, else the name; a building with neither (both empty) has no label. */
export function renderBuildingLabels(buildings: readonly LabelledBuilding[]): BuildingLabel[] {
  return buildings.flatMap((b) => {
    const text = b[F.number] || b[F.name];
    if (!text) return [];
    const [lon, lat] = centre(b.box);
    return [{ id: b.id, text, lon: round(lon), lat: round(lat) }];
  });
}

const centre = (b: Box): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
