// One colour per category, the same in the legend and on the map: hues spread by the golden
// angle so that neighbours in the list differ, two lightnesses to tell more of them apart.
import type { LegendCategory } from './types.js';

export const NO_CATEGORY_COLOUR = '#9ca3af';

export function categoryColours(categories: readonly LegendCategory[]): Map<number, string> {
  return new Map(categories.map((c, i) => [c.id, `hsl(${Math.round((i * 137.508) % 360)}, ${i % 2 ? 55 : 65}%, ${i % 2 ? 38 : 50}%)`]));
}
