// The original API's reads (/api/v1/), as the executor runs them (src/work/reads.ts): a
// record by id and a page by position are bounded and run inline; a filtered list is a
// costly read, but for features in a box alone (a map view's) found in the box index. The
// site reads its records and lists through them too.
import type { PageRequest } from '../../pagination.js';
import type { WorkClass } from '../../work/classes.js';
import type { BoundedContext, ReadDeclaration, Reads } from '../../work/reads.js';
import type { BoxMatches } from '../box-index.js';
import { hasFilters, type Filters } from '../filters.js';
import { indexedMatches } from '../map-view-reads.js';
import { getPlan, linkedPicturesPlan, listPlan } from '../read-plans.js';
import type { CollectionName, Detail, LinkedPictures, Listing, RowsByCollection } from '../store.js';

/**
 * A list of /api/v1/: filtered, it is a costly read; else a page by position, inline. One
 * feature's records (`feature` alone, as every record page asks three times) are a range of
 * the (feature_id, id) index, counted and paged there: bounded like a record by id, inline.
 */
export function listClass(filters: Filters): WorkClass | null {
  if (!hasFilters(filters) || onlyOneFeature(filters)) return null;
  return 'reads';
}

const onlyOneFeature = (filters: Filters) => filters.feature !== undefined && Object.entries(filters).every(([name, value]) => name === 'feature' || value === undefined);

/** A list's page, its filters, and (a map view's) every footprint in its box, found in the box index. */
type ListRead<C extends CollectionName> = ReadDeclaration<[page: PageRequest, filters?: Filters, boxMatches?: BoxMatches], Listing<RowsByCollection[C]>>;
type GetRead<C extends CollectionName> = ReadDeclaration<[id: number], Detail<RowsByCollection[C]>>;

function listReadOf<C extends CollectionName>(collection: C): ListRead<C> {
  return {
    name: `list ${collection}`,
    plan: (dialect, page, filters = {}, boxMatches) => listPlan(collection, page, filters, dialect, boxMatches),
    workClass: (_page, filters = {}) => listClass(filters),
    ...(collection === 'features' ? { boundedAfterAll: mapView } : {}),
  };
}

/**
 * A list of features in a box and nothing else is a map view's, as the OGC items page in a
 * box is (ogc-reads.ts): its footprints found in the server's box index while it is of the
 * catalogue's version, inline; else a costly read.
 */
async function mapView(context: BoundedContext, page: PageRequest, filters: Filters = {}): Promise<[PageRequest, Filters, BoxMatches] | null> {
  const { bbox, ...others } = filters;
  if (bbox === undefined || hasFilters(others)) return null;
  const matches = await indexedMatches(context, bbox);
  return matches === null || matches === 'costly' ? null : [page, filters, matches];
}

/** A record by id: one row by the primary key, inline. */
function getReadOf<C extends CollectionName>(collection: C): GetRead<C> {
  return { name: `get ${collection}`, plan: (_dialect, id) => getPlan(collection, id), workClass: () => null };
}

/** A page of each collection, narrowed by filters when given (count is then of the matches): `store.ask(listReads[collection], page, filters)`. */
export const listReads: { readonly [C in CollectionName]: ListRead<C> } = {
  features: listReadOf('features'),
  images: listReadOf('images'),
  documents: listReadOf('documents'),
  media: listReadOf('media'),
};

/** A published record of each collection by id: `store.ask(getReads[collection], id)`. */
export const getReads: { readonly [C in CollectionName]: GetRead<C> } = {
  features: getReadOf('features'),
  images: getReadOf('images'),
  documents: getReadOf('documents'),
  media: getReadOf('media'),
};

/** How many pictures answers link under /media/ (serve's warning when no folder serves them), from stored counts and an index: inline. */
export const linkedPicturesRead: ReadDeclaration<[], LinkedPictures> = {
  name: 'linkedPictures',
  plan: () => linkedPicturesPlan(),
  workClass: () => null,
};

/** A record by id of a collection known only as one of several (`getReads[collection]` of a union is no one read). */
export function askRecord<C extends CollectionName>(store: Reads, collection: C, id: number): Promise<Detail<RowsByCollection[C]>> {
  return store.ask(getReads[collection], id);
}
