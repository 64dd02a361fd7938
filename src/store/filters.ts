// What a list may be narrowed by (the finding-things parameters), already checked and
// normalised by the HTTP layer. An empty object means the whole collection.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { FeatureType } from '../catalogue/format.js';
import type { CollectionName } from './store.js';

const RECORDS: readonly CollectionName[] = ['images', 'documents', 'media'];
const ALL: readonly CollectionName[] = ['features', ...RECORDS];
const FEATURES: readonly CollectionName[] = ['features'];

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
  [F.postalCode]?: string;
  bbox?: readonly [minLon: number, minLat: number, maxLon: number, maxLat: number];
  feature?: number;
}

export function hasFilters(filters: Filters): boolean {
  return Object.values(filters).some((v) => v !== undefined);
}

/**
 * Which collections each finding-things parameter applies to, below both the HTTP layer that
 * parses them (http/api/filters.ts, in the same order) and the OpenAPI document that lists
 * them in this order. date_range applies to media only to be refused there.
 */
const FILTER_COLLECTIONS = {
  q: ALL,
  author: ALL,
  categories: FEATURES,
  tags: ALL,
  year_range: FEATURES,
  date_range: ALL,
  [F.type]: FEATURES,
  site: FEATURES,
  street: FEATURES,
  [F.postalCode]: FEATURES,
  bbox: ALL,
  feature: RECORDS,
} satisfies Record<string, readonly CollectionName[]>;

export type FilterName = keyof typeof FILTER_COLLECTIONS;

const isFilterName = (name: string): name is FilterName => name in FILTER_COLLECTIONS;
const FILTER_NAMES: readonly FilterName[] = Object.keys(FILTER_COLLECTIONS).filter(isFilterName);

export function filterApplies(name: FilterName, collection: CollectionName): boolean {
  const collections: readonly CollectionName[] = FILTER_COLLECTIONS[name];
  return collections.includes(collection);
}

/** The parameters a collection takes. */
export function filterParametersOf(collection: CollectionName): FilterName[] {
  return FILTER_NAMES.filter((name) => filterApplies(name, collection));
}
