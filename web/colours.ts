// One colour per category, the same in the legend and on the map: /map/config.json's, from
// src/palette.ts (distinct and colour-blind safe; the demo's thumbnails are drawn in it).
import { NO_CATEGORY_COLOUR } from '../src/palette.js';
import type { LegendCategory } from './types.js';

export { NO_CATEGORY_COLOUR };

export function categoryColours(categories: readonly LegendCategory[]): Map<number, string> {
  return new Map(categories.map((c) => [c.id, c.colour]));
}
