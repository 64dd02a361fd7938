// The OGC face's reads, as the executor runs them (src/work/reads.ts), and the classes of
// work they are: a page by its size first, then by its filter; a small page in a box of few
// footprints (a map view's) inline after all.
import { type CatalogueCollection } from '../../catalogue/collections.js';
import { childrenOf, type Expression, type Node } from '../../ogc/cql2/ast.js';
import { literalBox } from '../../search/box.js';
import { SMALL_PAGE_ITEMS, type WorkClass } from '../../work/classes.js';
import type { BoundedContext, ReadDeclaration } from '../../work/reads.js';
import { boxIndexPlan, boxMatchesPlan, footprintsIn, type BoxIndex } from '../box-index.js';
import { boxCandidates, versionPlan } from '../read-plans.js';
import { extentsPlan, itemIdsPlan, itemPlan, itemsPlan, type ItemDetail, type ItemIds, type ItemsPage, type ItemsRequest, type OgcExtents } from './ogc-plans.js';

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

/**
 * A page of features in a box and nothing else, whose box holds at most this many footprints
 * (by their bounding boxes, counted in the spatial index up to one past it), is a map view's:
 * its work is bounded (this many ids from the index, the few across the box's edges tested
 * exactly, a page read by id: about a millisecond on SQLite), so it runs at once, inline,
 * without a turn. A wider box is a costly read. Inline, the bbox page of bench --peers went
 * from 293 to 372 answers a second on SQLite, 221 to 390 on PostgreSQL (the turns of `reads`
 * no longer bound it); at 300 a denser catalogue's views (scale 3: 224 footprints a view,
 * 448 at the 90th percentile) were costly reads a quarter of the time.
 */
export const MAP_VIEW_FOOTPRINTS = 1000;

/** The box of a small page of features whose only condition is a CRS84 box (`bbox=`), else null: a candidate map view. */
export function mapViewBox(collection: CatalogueCollection, request: ItemsRequest): [number, number, number, number] | null {
  const { filter } = request;
  if (collection !== 'features' || request.limit > SMALL_PAGE_ITEMS || request.words !== null || request.sortBy.length > 0) return null;
  if (filter === null || filter.kind !== 'intersects' || filter.right.kind !== 'bbox' || filter.left.kind !== 'property') return null;
  return [...literalBox(filter.right)];
}

/**
 * A map view's box: its footprints found in the server's box index (box-index.ts), those its
 * boxes do not tell of tested exactly in the statement that reads the catalogue version; when
 * the index is of that version, any box of at most MAP_VIEW_INDEXED footprints is bounded (the
 * index hands them over in microseconds; the page reads at most `limit` + 1 rows by id) whose
 * exact tests are no more than MAP_VIEW_FOOTPRINTS, as many as a view had before. Until
 * the index is read again after a change (in the background), counted in the store's spatial
 * index (MAP_VIEW_FOOTPRINTS). A caller that counted them already (`fewCandidates`: a record
 * page's surroundings) is not asked again, a round trip fewer.
 */
async function mapView(context: BoundedContext, collection: CatalogueCollection, request: ItemsRequest): Promise<[CatalogueCollection, ItemsRequest] | null> {
  const box = mapViewBox(collection, request);
  if (box === null) return null;
  if (request.fewCandidates === true) return [collection, request];
  const index = context.lastKept(boxIndexRead);
  const found = index === null ? null : footprintsIn(index, box);
  // Past either bound a costly read: the index's ids and their sort, or the exact tests (inline on SQLite).
  if (found !== null && (found.meeting.length + found.across.length > MAP_VIEW_INDEXED || found.across.length > MAP_VIEW_FOOTPRINTS)) return null;
  // The version and the exact test in one statement; without an index, the version alone.
  const matches = found === null ? null : await context.reader.read((dialect) => boxMatchesPlan(found, dialect), { oneStatement: true });
  const version = matches?.version ?? (await context.reader.read(() => versionPlan(), { oneStatement: true }));
  context.keepFor(boxIndexRead, version);
  if (matches !== null && matches.version === found?.version) return [collection, { ...request, fewCandidates: true, boxMatches: matches }];
  const few = (await context.reader.read((dialect) => boxCandidates(box, MAP_VIEW_FOOTPRINTS, dialect), { oneStatement: true })) <= MAP_VIEW_FOOTPRINTS;
  return few ? [collection, { ...request, fewCandidates: true }] : null;
}

/**
 * A map view whose footprints the box index finds answers inline up to this many: the
 * index's search, the sort of their ids, the exact test of those across the box's edges (a
 * few hundred at most on a street map's view) and the page by id cost about 1 ms for 4,400
 * footprints and 4–5 ms for all 40,000 of scale 10 (SQLite, on a loaded 2-core machine),
 * where the store's spatial index took 4.6 ms and 134 ms.
 */
export const MAP_VIEW_INDEXED = 10_000;

/** Every footprint's box, packed, for the catalogue version it was read at: a scan, in a worker, kept. */
export const boxIndexRead: ReadDeclaration<[], BoxIndex> = {
  name: 'boxIndex',
  plan: (dialect) => boxIndexPlan(dialect),
  workClass: () => 'reads',
  keptPerVersion: true,
};

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
 * Each collection's spatial and temporal extent: a scan of every collection, and a function
 * of the catalogue version, so kept for the version it was read at (as the answer cache keeps
 * answers). Read each time, an uncached collection was 21 answers a second (and most
 * requests refused) where MapServer made 315 (bench --peers, PostgreSQL).
 */
export const extentsRead: ReadDeclaration<[], OgcExtents> = {
  name: 'extents',
  plan: (dialect) => extentsPlan(dialect),
  workClass: () => 'reads',
  keptPerVersion: true,
};
