// The visitors' site's own reads (src/http/site/), written once for both stores.
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
