// The OGC face's reads, as the executor runs them (src/work/reads.ts), and the classes of
// work they are: a page by its size first, then by its filter; a small page in a box of few
// footprints (a map view's) inline after all.
import { type CatalogueCollection } from '../../catalogue/collections.js';
import { childrenOf, type Expression, type Node } from '../../ogc/cql2/ast.js';
import { literalBox } from '../../search/box.js';
import { SMALL_PAGE_ITEMS, type WorkClass } from '../../work/classes.js';
import type { BoundedContext, ReadDeclaration, Reads } from '../../work/reads.js';
import { boxCandidates } from '../read-plans.js';
import { indexedMatches, MAP_VIEW_FOOTPRINTS } from '../map-view-reads.js';
import { collectionExtentPlan, itemIdsPlan, itemPlan, itemsPlan, type ItemDetail, type ItemIds, type ItemsPage, type ItemsRequest, type OgcExtents, type VersionedExtent } from './ogc-plans.js';

/** An OGC items page: by its size first, then by its filter. */
export function itemsClass(request: ItemsRequest): WorkClass | null {
  if (request.limit > SMALL_PAGE_ITEMS) return 'largePages';
  if (request.filter !== null && holdsShape(request.filter)) return 'geometryFilters';
  if (request.filter !== null || request.words !== null || request.sortBy.length > 0) return 'reads';
  return null;
}

/** A polygon or line literal: each row's footprint is tested against it in full. A box or point is cheap. */
function holdsShape(node: Expression | Node): boolean {
  if (node.kind === 'geometry') return node.value.type !== 'Point';
  return childrenOf(node).some(holdsShape);
}

/** The box of a small page of features whose only condition is a CRS84 box (`bbox=`), else null: a candidate map view. */
export function mapViewBox(collection: CatalogueCollection, request: ItemsRequest): [number, number, number, number] | null {
  const { filter } = request;
  if (collection !== 'features' || request.limit > SMALL_PAGE_ITEMS || request.words !== null || request.sortBy.length > 0) return null;
  if (filter === null || filter.kind !== 'intersects' || filter.right.kind !== 'bbox' || filter.left.kind !== 'property') return null;
  return [...literalBox(filter.right)];
}

/**
 * A map view's box: its footprints found in the server's box index (map-view-reads.ts
 * indexedMatches), when it is of the catalogue's version; until the index is read again
 * after a change (in the background), counted in the store's spatial index
 * (MAP_VIEW_FOOTPRINTS). A caller that counted them already (`fewCandidates`: a record
 * page's surroundings) is not asked again, a round trip fewer.
 */
async function mapView(context: BoundedContext, collection: CatalogueCollection, request: ItemsRequest): Promise<[CatalogueCollection, ItemsRequest] | null> {
  const box = mapViewBox(collection, request);
  if (box === null) return null;
  if (request.fewCandidates === true) return [collection, request];
  const matches = await indexedMatches(context, box);
  if (matches === 'costly') return null;
  if (matches !== null) return [collection, { ...request, fewCandidates: true, boxMatches: matches }];
  const few = (await context.reader.read((dialect) => boxCandidates(box, MAP_VIEW_FOOTPRINTS, dialect), { oneStatement: true })) <= MAP_VIEW_FOOTPRINTS;
  return few ? [collection, { ...request, fewCandidates: true }] : null;
}

/** A page of items by key, with the exact count of what matches. */
export const itemsRead: ReadDeclaration<[collection: CatalogueCollection, request: ItemsRequest], ItemsPage> = {
  name: 'items',
  plan: (dialect, collection, request) => itemsPlan(collection, request, dialect),
  workClass: (_collection, request) => itemsClass(request),
  boundedAfterAll: mapView,
};

/** One item by id: inline. */
export const itemRead: ReadDeclaration<[collection: CatalogueCollection, id: number], ItemDetail> = {
  name: 'item',
  plan: (dialect, collection, id) => itemPlan(collection, id, dialect),
  workClass: () => null,
};

/** Every published item's id by collection, from one catalogue version (the sitemap). */
export const itemIdsRead: ReadDeclaration<[], ItemIds> = {
  name: 'itemIds',
  plan: (dialect) => itemIdsPlan(dialect),
  workClass: () => 'reads',
};

/**
 * A collection's spatial and temporal extent: a scan of the collection, and a function of the
 * catalogue version, so kept for the version it was read at (as the answer cache keeps
 * answers). Read each time, an uncached collection was 21 answers a second (and most
 * requests refused) where MapServer made 315 (bench --peers, PostgreSQL). A read per
 * collection, each with its own deadline: the four at once took 1.5 s at scale 100 on
 * PostgreSQL (images' 0.5 s), past DB_TIMEOUT_MS, and /ogc/collections was refused.
 */
export const collectionExtentRead: ReadDeclaration<[collection: CatalogueCollection], VersionedExtent> = {
  name: 'collectionExtent',
  plan: (dialect, collection) => collectionExtentPlan(collection, dialect),
  workClass: () => 'reads',
  keptPerVersion: true,
};

/** Every collection's extent, all of one catalogue version (asked again while a change came between). */
export async function askExtents(store: Reads): Promise<OgcExtents> {
  const ask = (collection: CatalogueCollection) => store.ask(collectionExtentRead, collection);
  for (let attempt = 1; ; attempt++) {
    // One after another: at most one worker's turn at a time.
    const [features, images, documents, media] = [await ask('features'), await ask('images'), await ask('documents'), await ask('media')];
    const versions = new Set([features.version, images.version, documents.version, media.version]);
    // A change between two reads: the earlier ones are read again, at its version.
    if (versions.size > 1 && attempt < 3) continue;
    return { version: Math.max(...versions), extents: { features: features.extent, images: images.extent, documents: documents.extent, media: media.extent } };
  }
}
