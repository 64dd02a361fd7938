// What a list may be narrowed by (the finding-things parameters), already checked and
// normalised by the HTTP layer. An empty object means the whole collection.
import type { FeatureType } from '../catalogue/format.js';

export interface Filters {
  /** Folded words; a record matches when each is a prefix of one of its words. */
  words?: string[];
  author?: number;
  categories?: number[];
  /** Folded tags; a feature matches when it carries any of them. */
  tags?: string[];
  yearRange?: { from: number; to: number | null };
  dateRange?: { from: string; to: string | null };
  featureTypes?: FeatureType[];
  site?: number;
  /** Folded, compared whole. */
  street?: string;
  postcode?: string;
  bbox?: readonly [minLon: number, minLat: number, maxLon: number, maxLat: number];
  feature?: number;
}

export function hasFilters(filters: Filters): boolean {
  return Object.values(filters).some((v) => v !== undefined);
}
