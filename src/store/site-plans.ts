// The visitors' site's own reads (src/http/site/), written once for both stores.
import { binder, type Dialect } from './dialect.js';
import { versionPlan, type Plan } from './read-plans.js';

export interface YearCounts {
  version: number;
  /** Each year some feature is of, ascending, with how many are of it. */
  years: { year: number; count: number }[];
}

/** One read (the year index, grouped) for the home page's period bands and its first and last year. */
export function* yearCountsPlan(): Plan<YearCounts> {
  const version = yield* versionPlan();
  const rows = (yield {
    sql: 'SELECT f.current AS year, count(*) AS n FROM features f WHERE f.current IS NOT NULL GROUP BY f.current ORDER BY f.current',
    params: [],
  }) as { year: number | string; n: number | string }[];
  return { version, years: rows.map((r) => ({ year: Number(r.year), count: Number(r.n) })) };
}

export interface FeatureCard {
  id: number;
  /** The first published picture's file, as stored. */
  firstImage: string | null;
  /** The footprint's bounding box, [minLon, minLat, maxLon, maxLat]. */
  box: [number, number, number, number];
}

export interface FeatureCards {
  version: number;
  /** Those of the ids asked for that exist, by id. */
  cards: FeatureCard[];
}

/** At most this many ids a read: a page of results, read by primary key. */
export const MAX_CARDS = 100;

/** What a search result's card and its place on the results' map need, without the footprint (a feature's may be 64 kB). */
export function* featureCardsPlan(ids: readonly number[], dialect: Dialect): Plan<FeatureCards> {
  if (ids.length > MAX_CARDS) throw new Error(`featureCards reads at most ${MAX_CARDS} ids`);
  const version = yield* versionPlan();
  if (ids.length === 0) return { version, cards: [] };
  const { bind, params } = binder();
  const { from, columns } = dialect.featureBoxes('f');
  const rows = (yield {
    sql: `SELECT f.id, f.first_image, ${columns} FROM ${from} WHERE f.id IN (${ids.map(bind).join(', ')}) ORDER BY f.id`,
    params,
    adHoc: true,
  }) as { id: number; first_image: string | null; min_x: number; min_y: number; max_x: number; max_y: number }[];
  return { version, cards: rows.map((r) => ({ id: Number(r.id), firstImage: r.first_image, box: [Number(r.min_x), Number(r.min_y), Number(r.max_x), Number(r.max_y)] })) };
}
