// The map explorer's own reads (/map/…), written once for both stores: the ids of the
// features a search matches in a view (all of them, for outlining, not a page), the
// streets' labels as kept (apply/street-label-upkeep.ts), and the labelled buildings in a box.
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import type { CatalogueRecord } from '../../catalogue/lists.js';
import { binder, type Dialect } from '../dialect.js';
import { filterConditions } from '../filter-sql.js';
import type { Filters } from '../filters.js';
import { selectRows, versionPlan, viewCandidates, type Plan } from '../read-plans.js';
import type { StreetLabel } from '../apply/street-labels.js';

/** A search with the map view's box. */
export type ViewFilters = Filters & { bbox: NonNullable<Filters['bbox']> };

/** The matches of a search within a map view. */
export interface ViewMatches {
  version: number;
  /** The view holds more footprints than are checked for one answer (MAP_MATCHES_VIEW_FOOTPRINTS): none listed. */
  wide: boolean;
  /** Ascending: every match meeting the view, unless it is wide. */
  ids: number[];
}

/** [minLon, minLat, maxLon, maxLat] of a footprint. */
export type Box = [number, number, number, number];

export interface KeptStreet {
  /** As first written (its first building's, by id). */
  name: string;
  buildings: number;
  labels: StreetLabel[];
}

export interface KeptStreets {
  version: number;
  /** By street key, in one order on both stores (which collate text differently). */
  streets: KeptStreet[];
}

/** A building's number and name, as the catalogue keeps them. */
type NumberAndName = Pick<CatalogueRecord<'features'>, typeof F.number | typeof F.name>;

export type LabelledBuilding = { id: number; box: Box } & NumberAndName;

export interface BuildingLabels {
  version: number;
  buildings: LabelledBuilding[];
}

type BoxRow = { min_x: number; min_y: number; max_x: number; max_y: number };
const boxOf = (r: BoxRow): Box => [Number(r.min_x), Number(r.min_y), Number(r.max_x), Number(r.max_y)];


/**
 * The matches of a search meeting a view: the view's footprints counted in the spatial index
 * up to one past `atMost`, and, when no more, each of them checked against the search (the
 * box drives the query, the words checked row by row), so an answer's work is bounded by the
 * view, not by the number of matches in the whole catalogue.
 */
export function* viewMatchesPlan(filters: ViewFilters, atMost: number, dialect: Dialect, foundWide = false): Plan<ViewMatches> {
  const version = yield* versionPlan();
  // Found wide in the server's box index of the version read a moment before (map-view-reads.ts
  // wideInIndex): not counted again, nor, should a change have come between, read inline at length.
  if (foundWide || (yield* viewCandidates(filters.bbox, atMost, dialect)) > atMost) return { version, wide: true, ids: [] };
  const { bind, params } = binder();
  const where = filterConditions('features', filters, dialect, bind, 'box').join(' AND ');
  const rows = yield* selectRows<{ id: number | string }>({ sql: `SELECT f.id FROM features f WHERE ${where} ORDER BY f.id`, params, adHoc: true });
  return { version, wide: false, ids: rows.map((r) => Number(r.id)) };
}

/** Every street's labels as kept: a row a street, whatever the number of buildings. */
export function* streetLabelsPlan(): Plan<KeptStreets> {
  const version = yield* versionPlan();
  const rows = yield* selectRows<{ street_key: string; name: string; buildings: number | string; labels: string }>({
    sql: 'SELECT street_key, name, buildings, labels FROM street_labels',
    params: [],
  });
  rows.sort((a, b) => (a.street_key < b.street_key ? -1 : a.street_key > b.street_key ? 1 : 0));
  return { version, streets: rows.map((r) => ({ name: r.name, buildings: Number(r.buildings), labels: parseLabels(r.labels) })) };
}

function parseLabels(text: string): StreetLabel[] {
  const labels: unknown = JSON.parse(text);
  return Array.isArray(labels) ? labels : [];
}

/** Buildings with a number or a name meeting the box, at most `limit` of them, by id. */
export function* buildingLabelsPlan(box: Box, limit: number, dialect: Dialect): Plan<BuildingLabels> {
  const version = yield* versionPlan();
  const { bind, params } = binder();
  const { from, columns } = dialect.featureBoxes('f');
  const where = `${dialect.intersectsBox(box, bind)} AND (f.${F.number} IS NOT NULL OR f.${F.name} IS NOT NULL)`;
  const rows = (yield {
    sql: `SELECT f.id, f.${F.number}, f.${F.name}, ${columns} FROM ${from} WHERE ${where} ORDER BY f.id LIMIT ${bind(limit)}`,
    params,
    adHoc: true,
  }) as (BoxRow & { id: number } & NumberAndName)[];
  return { version, buildings: rows.map((r) => ({ id: Number(r.id), [F.number]: r[F.number], [F.name]: r[F.name], box: boxOf(r) })) };
}
