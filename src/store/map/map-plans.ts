// The map explorer's own reads (/map/…), written once for both stores: the ids of every
// feature a search matches (all of them, for outlining, not a page), the streets' labels
// as kept (apply/street-label-upkeep.ts), and the labelled buildings in a box.
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import type { CatalogueRecord } from '../../catalogue/lists.js';
import { binder, type Dialect } from '../dialect.js';
import { filterConditions } from '../filter-sql.js';
import type { Filters } from '../filters.js';
import { drivingIndex, selectRows, versionPlan, type Plan } from '../read-plans.js';
import type { StreetLabel } from '../apply/street-labels.js';

export interface MatchIds {
  version: number;
  /** Ascending. */
  ids: number[];
  /** The matching footprints' extent; null when nothing matches. */
  extent: Box | null;
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


export function* matchIdsPlan(filters: Filters, dialect: Dialect): Plan<MatchIds> {
  const version = yield* versionPlan();
  const driving = yield* drivingIndex(filters, dialect);
  const { bind, params } = binder();
  const where = ['TRUE', ...filterConditions('features', filters, dialect, bind, driving)].join(' AND ');
  const { from, columns } = dialect.featureBoxes('f');
  const ids: number[] = [];
  let extent: Box | null = null;
  const each = (row: unknown) => {
    const r = row as BoxRow & { id: number };
    ids.push(Number(r.id));
    const box = boxOf(r);
    extent = extent === null ? box : [Math.min(extent[0], box[0]), Math.min(extent[1], box[1]), Math.max(extent[2], box[2]), Math.max(extent[3], box[3])];
  };
  yield { sql: `SELECT f.id, ${columns} FROM ${from} WHERE ${where} ORDER BY f.id`, params, adHoc: true, each };
  return { version, ids, extent };
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
