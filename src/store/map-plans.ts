// The map explorer's own reads (/map/…), written once for both stores: the ids of every
// feature a search matches (all of them, for outlining, not a page), each street's
// buildings as boxes (for its labels), and the labelled buildings in a box.
import { randomUUID } from 'node:crypto';
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { CatalogueRecord } from '../catalogue/lists.js';
import { binder, type Dialect } from './dialect.js';
import { filterConditions } from './filter-sql.js';
import type { Filters } from './filters.js';
import { drivingIndex, metaValue, versionPlan, type Plan } from './read-plans.js';

export interface MatchIds {
  version: number;
  /** Ascending. */
  ids: number[];
  /** The matching footprints' extent; null when nothing matches. */
  extent: Box | null;
}

/** [minLon, minLat, maxLon, maxLat] of a footprint. */
export type Box = [number, number, number, number];

export interface StreetBuildings {
  version: number;
  /** What the streets were read at (STREETS_STAMP_KEY); null in a database from before it was kept. */
  stamp: string | null;
  /**
   * Each street (as first written) with its buildings' centres (their boxes'), one list of
   * lon, lat, lon, lat…: no array per building (388,000 of them at scale 100). Null when the
   * caller's stamp is still the catalogue's: the streets it holds are the same.
   */
  streets: { name: string; centres: number[] }[] | null;
}

/**
 * Meta's mark of the streets' data: made new by every import, and by every apply that adds,
 * removes, renames the street of or moves a feature (apply-derived.ts). Most applies (an
 * approved contribution, a document corrected) leave it, so the streets' labels (a read of
 * every feature, 200–400 ms at scale 10) are not made again for them. Random, so that a
 * database made again under a running server never repeats the one it kept.
 */
export const STREETS_STAMP_KEY = 'streets_stamp';

/** A new stamp, as meta's key and value. */
export function newStreetsStamp(): [string, string] {
  return [STREETS_STAMP_KEY, randomUUID()];
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

export function* streetBuildingsPlan(dialect: Dialect, unlessStamp: string | null = null): Plan<StreetBuildings> {
  const version = yield* versionPlan();
  const stamp = (yield* metaValue(STREETS_STAMP_KEY)) ?? null;
  if (stamp !== null && stamp === unlessStamp) return { version, stamp, streets: null };
  const { from, columns } = dialect.featureBoxes('f');
  const streets = new Map<string, { name: string; centres: number[] }>();
  const each = (row: unknown) => {
    const r = row as BoxRow & { street: string; street_key: string };
    const street = streets.get(r.street_key) ?? { name: r.street, centres: [] };
    const [minX, minY, maxX, maxY] = boxOf(r);
    street.centres.push((minX + maxX) / 2, (minY + maxY) / 2);
    streets.set(r.street_key, street);
  };
  yield { sql: `SELECT f.street, f.street_key, ${columns} FROM ${from} WHERE f.street_key IS NOT NULL ORDER BY f.street_key, f.id`, params: [], each };
  return { version, stamp, streets: [...streets.values()] };
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
