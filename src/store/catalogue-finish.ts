// The SQL that finishes a streamed load once every row is in, the same for both stores but
// for a few words (their dialects): positions when ids came out of order, each feature's
// count of published records, and the search text of every record (joined from the folded
// pieces staged by catalogue-rows.ts, in the order the text was always built in).
import { ATTACHED_LISTS, type LoadSummary } from './catalogue-rows.js';
import { LIST_SEPARATOR } from '../catalogue/collections.js';
import type { Dialect } from './dialect.js';
import type { FinishProgress } from './store.js';

/** The temporary tables catalogue-rows.ts stages folded text in, and their columns. */
const STAGING_TABLES = {
  stage_category_names: 'id integer PRIMARY KEY, text text NOT NULL',
  stage_feature_text: 'id integer PRIMARY KEY, own text NOT NULL, names text NOT NULL',
  stage_attached: 'kind integer NOT NULL, seq integer NOT NULL, id integer NOT NULL, feature_id integer NOT NULL, text text NOT NULL',
};

export const STAGING_TABLE_NAMES: readonly string[] = Object.keys(STAGING_TABLES);

/** The staging tables, made before the first row (a transaction's own in PostgreSQL). */
export function stagingStatements(d: Dialect): string[] {
  return Object.entries(STAGING_TABLES).map(([name, columns]) => d.temporaryTable(name, columns));
}

const words = (...parts: string[]) => `concat_ws(' ', ${parts.map((p) => `NULLIF(${p}, '')`).join(', ')})`;

/** Positions 0, 1, 2… in id order; moved out of the way first, as they are unique. */
function positionSql(table: string, publishedOnly: boolean): string[] {
  const where = publishedOnly ? ' WHERE position IS NOT NULL' : '';
  return [
    `UPDATE ${table} SET position = -position - 1${where}`,
    `UPDATE ${table} SET position = r.p FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS p FROM ${table}${where}) r WHERE ${table}.id = r.id`,
  ];
}

/** An apply stages the text of more records than it rewrites: `stage_redo` names those to write. */
const redoOnly = (list: string, id: string) => `${id} IN (SELECT id FROM stage_redo WHERE list = '${list}')`;

function featuresSearchSql(d: Dialect, redo = false): string {
  const row = d.searchRow('t.id', words('t.own', 'c.text', 'a.text'));
  const where = redo ? `\n    WHERE ${redoOnly('features', 't.id')}` : '';
  return `INSERT INTO features_search (${row.columns}) SELECT ${row.values} FROM stage_feature_text t
    LEFT JOIN (SELECT fc.feature_id, ${d.joinWords("NULLIF(n.text, '')", 'fc.position')} AS text
      FROM feature_categories fc JOIN stage_category_names n ON n.id = fc.category_id GROUP BY fc.feature_id) c ON c.feature_id = t.id
    LEFT JOIN (SELECT feature_id, ${d.joinWords("NULLIF(text, '')", 'kind, seq')} AS text
      FROM stage_attached GROUP BY feature_id) a ON a.feature_id = t.id${where}`;
}

/**
 * Each feature's category names joined by "; " in its own order ('' without any): the OGC
 * face's `categories`, read and filtered from this table (ogc-sql.ts) through its trigram index.
 */
function categoryNamesSql(d: Dialect, redo = false): string {
  const where = redo ? `\n    WHERE ${redoOnly('features', 't.id')}` : '';
  return `INSERT INTO feature_category_names (${d.searchId}, names) SELECT t.id, coalesce((SELECT ${d.joinText('c.name', 'fc.position', LIST_SEPARATOR)}
      FROM feature_categories fc JOIN categories c ON c.id = fc.category_id WHERE fc.feature_id = t.id), '')
    FROM stage_feature_text t${where}`;
}

/** The tables holding a list's rows derived from its text, keyed by the record's id (`searchId`). */
export function textTablesOf(list: string): string[] {
  return list === 'features' ? ['features_search', 'feature_category_names'] : [`${list}_search`];
}

function recordsSearchSql(d: Dialect, kind: number, table: string, redo = false): string {
  const row = d.searchRow('a.id', words('a.text', 't.names'));
  return `INSERT INTO ${table}_search (${row.columns}) SELECT ${row.values} FROM stage_attached a
    LEFT JOIN stage_feature_text t ON t.id = a.feature_id WHERE a.kind = ${kind}${redo ? ` AND ${redoOnly(table, 'a.id')}` : ''}`;
}

/** The staging table of the records an apply writes search text for, beside the load's. */
export function redoStagingStatements(d: Dialect): string[] {
  return [...stagingStatements(d), d.temporaryTable('stage_redo', 'list text NOT NULL, id integer NOT NULL')];
}

export const REDO_STAGING_TABLE_NAMES: readonly string[] = [...STAGING_TABLE_NAMES, 'stage_redo'];

/** The search text of the records `stage_redo` names, from what is staged (an apply). */
export function redoSearchStatements(d: Dialect): string[] {
  return [featuresSearchSql(d, true), categoryNamesSql(d, true), ...ATTACHED_LISTS.map((list, kind) => recordsSearchSql(d, kind, list, true))];
}

/** A feature's published records of a list, counted (an UPDATE of `features`). */
export const publishedCount = (list: string) => `(SELECT count(*) FROM ${list} r WHERE r.feature_id = features.id AND r.position IS NOT NULL)`;

/**
 * What the OGC face shows of each feature from other rows (ogc-sql.ts reads these columns):
 * its published images, documents and media counted, its first image's file, its category
 * ids and its tags joined by "; ". Seven subqueries for every row of every page otherwise
 * (bench --peers: 1.5 ms of PostgreSQL's 2.5 for a bbox page); written at import for every
 * feature, at apply for those whose records or attachments changed (`where`).
 */
export function featureShownSql(d: Dialect, where = ''): string {
  return `UPDATE features SET
    image_count = ${publishedCount('images')}, document_count = ${publishedCount('documents')}, media_count = ${publishedCount('media')},
    first_image = (SELECT i.file FROM images i WHERE i.feature_id = features.id AND i.position IS NOT NULL ORDER BY i.id LIMIT 1),
    category_list = coalesce((SELECT ${d.joinText('CAST(fc.category_id AS text)', 'fc.position', LIST_SEPARATOR)} FROM feature_categories fc WHERE fc.feature_id = features.id), ''),
    tag_list = ${d.joinJsonList('features.tags', LIST_SEPARATOR)}${where === '' ? '' : ` WHERE ${where}`}`;
}

const ITEM_COUNT_SQL = `UPDATE features SET item_count = c.n
  FROM (SELECT feature_id, count(*) AS n FROM stage_attached GROUP BY feature_id) c WHERE features.id = c.feature_id`;

/** A named stage of finishing a load: what a terminal shows while its statements run. */
export interface FinishStep {
  label: string;
  sql: string[];
}

/** Every statement that finishes a load, in order, in steps a progress line can name. */
export function finishSteps(d: Dialect, summary: LoadSummary): FinishStep[] {
  const positions = [
    ...(summary.inOrder.features ? [] : positionSql('features', false)),
    ...ATTACHED_LISTS.flatMap((list) => (summary.inOrder[list] ? [] : positionSql(list, true))),
  ];
  return [
    ...(positions.length > 0 ? [{ label: 'positions', sql: positions }] : []),
    { label: 'counts of published records', sql: [ITEM_COUNT_SQL] },
    { label: 'what pages show of features', sql: [featureShownSql(d)] },
    { label: 'search text of features', sql: [featuresSearchSql(d)] },
    { label: 'category names of features', sql: [categoryNamesSql(d)] },
    ...ATTACHED_LISTS.map((list, kind) => ({ label: `search text of ${list}`, sql: [recordsSearchSql(d, kind, list)] })),
  ];
}

/** Tells each step as it begins, counting them, out of a total known before the first. */
export type StepTeller = (label: string) => void;

export function stepTeller(onStep: FinishProgress | undefined, total: number): StepTeller {
  let done = 0;
  return (label) => onStep?.(done++, total, label);
}

/** `count.*` rows of the meta table: every feature, published records only. */
export function metaCounts(summary: LoadSummary): [string, string][] {
  return Object.entries(summary.counts).map(([name, count]) => [`count.${name}`, String(count)]);
}
