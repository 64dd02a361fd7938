// SQL text shared by both stores, with `$1`-style placeholders. Each appears once and in
// order, so toSqlite() can turn them into SQLite's positional `?`. The columns of records
// and features come from their declaration (rows.ts, catalogue/fields.ts).
import { LISTED_FEATURE, NESTED_FEATURE, NESTED_PREFIX, RECORD_FIELDS } from './rows.js';
import type { CollectionName } from './store.js';

export type RecordCollection = Exclude<CollectionName, 'features'>;

const FEATURE_COLUMNS = `${LISTED_FEATURE.select('f')}, f.item_count, f.geometry, s.id AS site_id, s.name AS site_name`;

const NESTED_FEATURE_COLUMNS = `${NESTED_FEATURE.select('f', NESTED_PREFIX)},
  f.item_count AS ${NESTED_PREFIX}item_count, f.geometry AS ${NESTED_PREFIX}geometry`;

export const SELECT_META = 'SELECT value FROM meta WHERE key = $1';
export const SET_META = 'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value';
/** Every read's first statement, without parameters: PostgreSQL sends it with the read's BEGIN (postgres.ts). */
export const SELECT_VERSION = "SELECT value FROM meta WHERE key = 'catalogue_version'";

/** A page is a position range; a detail record is an id (and published: it has a position). */
export const byPosition = (table: string) => `${table}.position >= $1 AND ${table}.position < $2`;
export const byId = (table: string) => `${table}.id = $1 AND ${table}.position IS NOT NULL`;

export function selectFeatures(where: string): string {
  return `SELECT ${FEATURE_COLUMNS} FROM features f LEFT JOIN sites s ON s.id = f.site_id
    WHERE ${where} ORDER BY f.position`;
}

export function selectRecords(collection: RecordCollection, where: string): string {
  return `SELECT ${RECORD_FIELDS[collection].select('x')}, a.id AS author_id, a.username, ${NESTED_FEATURE_COLUMNS}
    FROM ${collection} x JOIN authors a ON a.id = x.author_id JOIN features f ON f.id = x.feature_id
    WHERE ${where} ORDER BY x.position`;
}

/**
 * A feature-id condition for the query below, on `column` from placeholder `$n` on: an id
 * range, or a dialect's id list. `width`: how many placeholders it takes.
 */
export interface FeatureIds {
  width: number;
  on(column: string, n: number): string;
}

export const idRange: FeatureIds = { width: 2, on: (column, n) => `${column} >= $${n} AND ${column} <= $${n + 1}` };

/** What selectExtras's rows are, by their `kind` column's value. */
export const EXTRA_KINDS = ['categories', 'documents', 'images', 'media'] as const;

/**
 * What belongs to some features, one statement (a round trip, not four): their categories in
 * each feature's own order (`label` the name), then each collection's published attachments
 * by id (`label` the title, with the author), by feature. Each branch has its own
 * placeholders (toSqlite), so the ids' parameters are given once per branch.
 */
export function selectExtras(ids: FeatureIds): string {
  const at = (branch: number) => 1 + branch * ids.width;
  const summaries = EXTRA_KINDS.slice(1).map((collection, k) => `SELECT ${k + 1} AS kind, x.feature_id, x.id AS ord, x.id, x.title AS label,
    NULL AS description, NULL AS thumbnail, a.id AS author_id, a.username
    FROM ${collection} x JOIN authors a ON a.id = x.author_id
    WHERE x.position IS NOT NULL AND ${ids.on('x.feature_id', at(k + 1))}`);
  return `SELECT 0 AS kind, fc.feature_id, fc.position AS ord, c.id, c.name AS label,
    c.description, c.thumbnail, NULL AS author_id, NULL AS username
    FROM feature_categories fc JOIN categories c ON c.id = fc.category_id
    WHERE ${ids.on('fc.feature_id', at(0))}
  UNION ALL ${summaries.join('\n  UNION ALL ')}
  ORDER BY kind, feature_id, ord`;
}

/** Categories in use, with the number of features in each and their rank among all categories by id (the map's legend and colours). */
export const SELECT_CATEGORIES_IN_USE = `SELECT c.id, c.name, c.description, c.thumbnail, count(*) AS features,
  (SELECT count(*) FROM categories r WHERE r.id < c.id) AS rank
  FROM categories c JOIN feature_categories fc ON fc.category_id = c.id
  GROUP BY c.id, c.name, c.description, c.thumbnail ORDER BY c.id`;

/** How many categories in use have a thumbnail. */
export const SELECT_THUMBNAILS_IN_USE = `SELECT count(*) AS n FROM categories c
  WHERE c.thumbnail <> '' AND EXISTS (SELECT 1 FROM feature_categories fc WHERE fc.category_id = c.id)`;

/** The ids (as `id`) of the records matching: features `f`, or published records `x` with their feature `f`. */
export function matchingIds(collection: CollectionName, where: string): string {
  if (collection === 'features') return `SELECT f.id AS id FROM features f WHERE ${where}`;
  return `SELECT x.id AS id FROM ${collection} x JOIN features f ON f.id = x.feature_id WHERE x.position IS NOT NULL AND ${where}`;
}

/**
 * The ids of a page of matching records (`matching`: their ids, as `id`), in id order, for
 * the query that reads them (a list's rows, the site's search cards). The page's ids
 * are chosen first, from the filter's indexes alone, and only those rows are read whole: a page deep in the matches
 * then skips ids, not whole rows (footprints, text). Ids are in position order (positions
 * are given in id order, catalogue-finish.ts), and ordered by id a text match or an id
 * list is walked in order and stopped at the page's end. A page in the second half of
 * the matches is counted from the end (`fromEnd`), so that the last page costs what the
 * first does. With `all`, every match is listed first (as the count just did) and then
 * sorted: for few matches, which a walk in id order could pass many rows to meet
 * (read-plans.ts listsFewer).
 */
export interface MatchingSlice { limit: string; offset: string; fromEnd: boolean; all: boolean }

export function matchingSlice(matching: string, page: MatchingSlice): string {
  const slice = `ORDER BY id ${page.fromEnd ? 'DESC' : ''} LIMIT ${page.limit} OFFSET ${page.offset}`;
  // MATERIALIZED: planned alone, as the count was, not as a walk in id order.
  return page.all ? `WITH matching AS MATERIALIZED (${matching}) SELECT id FROM matching ${slice}` : `${matching} ${slice}`;
}

export function toSqlite(sql: string): string {
  let expected = 1;
  return sql.replace(/\$(\d+)/g, (_match, n: string) => {
    if (Number(n) !== expected++) throw new Error(`placeholders out of order in: ${sql}`);
    return '?';
  });
}
