// The classes of costly work, declared once: which store calls are of which class, and
// each class's limits (settings WORK_*, src/settings/table.ts). A call of no class is
// within a small bound (a record by id, a page of at most 100 in id order, the version) and
// runs at once, inline; every other call takes a turn of its class (gate.ts) and runs in a
// worker thread of its class with the DB_TIMEOUT_MS deadline (guarded-store.ts, pool.ts).
// A new face whose reads go through the store inherits this.
import type { Config } from '../config.js';
import { childrenOf, type Expression, type Node } from '../ogc/cql2/ast.js';
import type { CatalogueCollection } from '../catalogue/collections.js';
import { literalBox } from '../search/box.js';
import type { ItemsRequest } from '../store/ogc-plans.js';
import { hasFilters, type Filters } from '../store/filters.js';
import { Gate } from './gate.js';

export type WorkClass = 'reads' | 'geometryFilters' | 'largePages' | 'downloads' | 'builds';

/**
 * Each class: its setting (how many run at once), its name as a refusal says it, and how many
 * may wait per turn. Reads are many and short (a filtered page, a search: tens of ms at the
 * worst, `q` being bounded), so a long line keeps a visitor's search from being refused
 * behind a crowd of them; the others are long or large, and a short line refuses the crowd.
 */
export const WORK_CLASSES = {
  reads: { running: 'workReads', name: 'costly reads', waitingPerTurn: 16 },
  geometryFilters: { running: 'workGeometryFilters', name: 'geometry filters', waitingPerTurn: 4 },
  largePages: { running: 'workLargePages', name: 'large pages', waitingPerTurn: 4 },
  downloads: { running: 'workDownloads', name: 'downloads', waitingPerTurn: 4 },
  builds: { running: 'workBuilds', name: 'GeoPackage builds', waitingPerTurn: 4 },
} as const satisfies Record<WorkClass, { running: keyof Config; name: string; waitingPerTurn: number }>;

export const WORK_CLASS_NAMES = Object.keys(WORK_CLASSES) as WorkClass[];

/** How long one may wait, in deadlines: a line this short is bounded in memory, so its wait need not be the deadline's. */
const WAIT_DEADLINES = 5;

/** Items a page may ask for before it is a large page (what /api/v1/ never passes). */
export const SMALL_PAGE_ITEMS = 100;

export type WorkLimitsConfig = Pick<Config, 'dbTimeoutMs' | (typeof WORK_CLASSES)[WorkClass]['running']>;

export type Gates = Readonly<Record<WorkClass, Gate>>;

/** One gate per class, for one process. */
export function workGates(config: WorkLimitsConfig): Gates {
  const gate = (klass: WorkClass) => {
    const running = config[WORK_CLASSES[klass].running];
    return new Gate(WORK_CLASSES[klass].name, { running, waiting: running * WORK_CLASSES[klass].waitingPerTurn, waitMs: config.dbTimeoutMs * WAIT_DEADLINES });
  };
  return { reads: gate('reads'), geometryFilters: gate('geometryFilters'), largePages: gate('largePages'), downloads: gate('downloads'), builds: gate('builds') };
}

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

/** An OGC items page: by its size first, then by its filter. */
export function itemsClass(request: ItemsRequest): WorkClass | null {
  if (request.limit > SMALL_PAGE_ITEMS) return 'largePages';
  if (request.filter !== null && holdsShape(request.filter)) return 'geometryFilters';
  if (request.filter !== null || request.words !== null || request.sortBy.length > 0) return 'reads';
  return null;
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

/** A polygon or line literal: each row's footprint is tested against it in full. A box or point is cheap. */
function holdsShape(node: Expression | Node): boolean {
  if (node.kind === 'geometry') return node.value.type !== 'Point';
  return childrenOf(node).some(holdsShape);
}
