// The few places where SQLite and PostgreSQL need different SQL, as one object per store
// handed to the shared SQL builders: full-text matching and search rows, spatial tests,
// "id in this list", ordered aggregates, staging tables, the footprints' extent, and what
// a CQL2 filter needs (LIKE, CASEI, booleans: ogc/cql2/to-sql.ts). Everything else (sql.ts,
// filter-sql.ts, ogc-sql.ts, catalogue-finish.ts, export-rows.ts) is shared.
import type { SpatialLiteral } from '../ogc/cql2/ast.js';
import type { Cql2Dialect } from '../ogc/cql2/to-sql.js';
import { literalBox } from '../search/box.js';
import { arePlainWords } from '../search/text.js';

/** Adds a parameter and returns its placeholder (`$n`, numbered in order of use). */
export type Bind = (value: unknown) => string;

/** A feature's category ids in their order, as one comma-separated text, from `FROM … WHERE …`. */
export type CategoryIdList = (from: string) => string;

export interface Dialect extends Cql2Dialect {
  /** Which engine's SQL: where a plan's SQL differs by more than these pieces (tiles/tile-plans.ts), the plan picks its variant by it. */
  engine: 'sqlite' | 'postgres';
  /** A subquery selecting the ids (as `id`) in `table` (e.g. features_search) matching every word as a prefix. */
  textMatch(table: string, words: readonly string[], bind: Bind): string;
  /**
   * The same match as a condition on one record, `id` its id in `table`, checked row by row
   * once another index has found the candidates (textMatch would list every match first).
   */
  textCheck(table: string, id: string, words: readonly string[], bind: Bind): string;
  /** A condition on features `f`: the footprint intersects the box, its candidates found by the spatial index. */
  intersectsBox(box: readonly [number, number, number, number], bind: Bind): string;
  /** The same test row by row, once another index has found the candidates. */
  boxCheck(box: readonly [number, number, number, number], bind: Bind): string;
  /** A condition on features `f`: the footprint's bounding box meets the box (the spatial index alone, no exact test). */
  boxesMeet(box: readonly [number, number, number, number], bind: Bind): string;
  /** One row, `n`: how many footprints the spatial index finds for the box, counted up to `limit`. */
  boxCandidates(box: readonly [number, number, number, number], limit: number, bind: Bind): string;
  /**
   * Whether a walk in id order evaluates the filter on every row it passes (PostgreSQL),
   * so that for few matches listing them all costs less (read-plans.ts listsFewer); SQLite
   * looks each id up in the lists its IN conditions built once.
   */
  walkChecksEachRow: boolean;
  /**
   * Whether the positions' uniqueness is checked when a statement ends (PostgreSQL: the
   * constraints are DEFERRABLE, migration 12), so that one UPDATE can shift them; SQLite
   * checks each row as it changes, so the rows first move out of the way (apply-derived.ts).
   */
  positionsCheckedPerStatement: boolean;
  /** A condition on the features aliased `alias`: the footprint intersects the literal (exactly). */
  intersects(alias: string, literal: SpatialLiteral, bind: Bind): string;
  /** A JSON list of strings kept as text → its items in order, `separator` between them ('' when empty). */
  joinJsonList(json: string, separator: string): string;
  /** An ordered string aggregate of text values, `separator` (plain text) between them. */
  joinText(expression: string, orderBy: string, separator: string): string;
  /** A condition: `column` is one of the ids given as parameter `placeholder` (see idsParam). */
  idIn(column: string, placeholder: string): string;
  /** The parameter value idIn expects for a list of ids. */
  idsParam(ids: readonly number[]): unknown;
  /** One row: min_x, min_y, max_x, max_y of every footprint, or of those whose id `featureIds` selects (nulls when there is none). */
  extent(featureIds?: string): string;
  /**
   * The extent of many features' footprints is read in slices of this many ids, or whole
   * (null): PostgreSQL reads every footprint of them (the extent of those with pictures took
   * 1 s at scale 100 with no parallel plan, past DB_TIMEOUT_MS; 0.1 s a slice); SQLite's
   * R*Tree tells the sides, and a slice would read its records' table again.
   */
  extentSliceIds: number | null;
  /** A feature's category ids in their order, as one comma-separated text. */
  categoryIds: CategoryIdList;
  /** An ordered string aggregate, words one space apart. */
  joinWords(expression: string, orderBy: string): string;
  /** The column list and value of a search-table row from its text. */
  searchRow(idExpression: string, textExpression: string): { columns: string; values: string };
  /** The search table's column that is the record's id. */
  searchId: string;
  /** A table of the loading connection's own (staging), gone by the end of the load. */
  temporaryTable(name: string, columns: string): string;
  /** Features aliased `alias` with their footprint's box as min_x, min_y, max_x, max_y. */
  featureBoxes(alias: string): { from: string; columns: string };
  /** A subquery of (id, text) rows from these pairs, for an UPDATE … FROM of many rows in one statement. */
  idTextRows(pairs: readonly (readonly [number, string])[], bind: Bind): string;
}

export const SQLITE_DIALECT: Dialect = {
  engine: 'sqlite',
  textMatch(table, words, bind) {
    // The rowid is the record's id: a match is answered from the full-text index alone,
    // where a column would be read from the stored text of every match.
    return `SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ${bind(fts5Query(words))}`;
  },
  textCheck(table, id, words, bind) {
    // FTS5 cannot check one row without listing every match of a prefix (30 ms a row for
    // "street"* at scale 100), so matches_words (sqlite.ts) checks the record's stored text:
    // plain words only, the others' matches listed once for the statement instead.
    if (!arePlainWords(words)) return `${id} IN (${SQLITE_DIALECT.textMatch(table, words, bind)})`;
    return `matches_words((SELECT text FROM ${table} WHERE rowid = ${id}), ${bind(words.join(' '))}, ${bind(fts5Query(words))})`;
  },
  intersectsBox(box, bind) {
    return SQLITE_DIALECT.intersects('f', { kind: 'bbox', value: box }, bind);
  },
  boxCheck(box, bind) {
    return `intersects_box(f.outline, ${box.map(bind).join(', ')})`;
  },
  boxesMeet: (box, bind) => `f.id IN (${rtreeCandidates(box, bind)})`,
  boxCandidates(box, limit, bind) {
    return `SELECT count(*) AS n FROM (${rtreeCandidates(box, bind)} LIMIT ${bind(limit)}) c`;
  },
  walkChecksEachRow: false,
  positionsCheckedPerStatement: false,
  intersects(alias, literal, bind) {
    // R*Tree candidates by bounding box, then the exact test (sqlite.ts registers both functions).
    const [minX, minY, maxX, maxY] = literalBox(literal);
    // Bracketed: one condition, so that NOT (CQL2's NOT S_INTERSECTS) applies to both halves.
    if (literal.kind !== 'bbox') return `(${alias}.id IN (${rtreeCandidates([minX, minY, maxX, maxY], bind)}) AND intersects_geometry(${alias}.geometry, ${bind(JSON.stringify(literal.value))}))`;
    // The ids that meet the box, as one list made once per statement from the R*Tree: a
    // footprint whose R*Tree box (which holds it) lies inside the box meets it, read from the
    // index alone; only those across the box's edges are read and tested exactly. Each id is
    // then one lookup, where testing every candidate row by row made a box of 700 footprints
    // (bench --peers --scale 10) slower than MapServer.
    const inside = (r: string) => `${r}.min_x >= ${bind(minX)} AND ${r}.max_x <= ${bind(maxX)} AND ${r}.min_y >= ${bind(minY)} AND ${r}.max_y <= ${bind(maxY)}`;
    // Placeholders are numbered in the order they are written.
    const within = `SELECT r.id FROM features_rtree r WHERE ${inside('r')}`;
    const meets = `r.max_x >= ${bind(minX)} AND r.min_x <= ${bind(maxX)} AND r.max_y >= ${bind(minY)} AND r.min_y <= ${bind(maxY)}`;
    const across = `SELECT r.id FROM features_rtree r JOIN features x ON x.id = r.id WHERE ${meets} AND NOT (${inside('r')}) AND intersects_box(x.outline, ${bind(minX)}, ${bind(minY)}, ${bind(maxX)}, ${bind(maxY)})`;
    return `${alias}.id IN (${within} UNION ALL ${across})`;
  },
  geometryColumn: (alias) => `${alias}.geometry`,
  joinJsonList: (json, separator) => `coalesce((SELECT group_concat(value, '${sqlText(separator)}' ORDER BY key) FROM json_each(${json})), '')`,
  joinText: (e, o, separator) => `group_concat(${e}, '${sqlText(separator)}' ORDER BY ${o})`,
  idIn: (column, placeholder) => `${column} IN (SELECT value FROM json_each(${placeholder}))`,
  idsParam: (ids) => JSON.stringify(ids),
  extent: sqliteExtent,
  extentSliceIds: null,
  sortKey: (sql) => sql,
  categoryIds: (from) => `(SELECT group_concat(category_id, ',' ORDER BY position) ${from})`,
  joinWords: (e, o) => `group_concat(${e}, ' ' ORDER BY ${o})`,
  searchRow: (id, text) => ({ columns: 'rowid, text', values: `${id}, ${text}` }),
  searchId: 'rowid',
  // Dropped by the load itself (sqlite-load.ts), before and after.
  temporaryTable: (name, columns) => `CREATE TEMP TABLE ${name} (${columns})`,
  // The R*Tree's boxes (32-bit floats rounded outwards: within a metre), not the JSON parsed per row.
  featureBoxes: (alias) => ({ from: `features ${alias} JOIN features_rtree r ON r.id = ${alias}.id`, columns: 'r.min_x, r.min_y, r.max_x, r.max_y' }),
  idTextRows: (pairs, bind) => `(SELECT CAST(key AS INTEGER) AS id, value AS text FROM json_each(${bind(JSON.stringify(Object.fromEntries(pairs)))}))`,
  // lower() folds ASCII only; casefold is JavaScript's toLowerCase (sqlite.ts), as PostgreSQL's lower() in UTF-8.
  caseFold: (sql) => `casefold(${sql})`,
  // SQLite's LIKE ignores ASCII case, and PRAGMA case_sensitive_like is deprecated and
  // changes every statement of the connection; GLOB is case-sensitive per statement.
  like: (value, pattern) => `${value} GLOB ${pattern}`,
  likePattern: likeToGlob,
  bindBoolean: (value) => (value ? 1 : 0),
};

export const POSTGRES_DIALECT: Dialect = {
  engine: 'postgres',
  textMatch(table, words, bind) {
    // text_query (migration 4): to_tsquery('simple', unaccent(…)), computed once per query.
    return `SELECT id FROM ${table} WHERE document @@ text_query(${bind(tsQuery(words))})`;
  },
  textCheck(table, id, words, bind) {
    // A scalar subquery, which the planner cannot turn into a join driven by the text index.
    return `(SELECT s.document FROM ${table} s WHERE s.id = ${id}) @@ text_query(${bind(tsQuery(words))})`;
  },
  intersectsBox(box, bind) {
    return POSTGRES_DIALECT.intersects('f', { kind: 'bbox', value: box }, bind);
  },
  boxCheck(box, bind) {
    return POSTGRES_DIALECT.intersectsBox(box, bind);
  },
  boxesMeet: (box, bind) => `f.geom && ${envelope(box, bind)}`,
  boxCandidates(box, limit, bind) {
    return `SELECT count(*) AS n FROM (SELECT 1 FROM features f WHERE f.geom && ${envelope(box, bind)} LIMIT ${bind(limit)}) c`;
  },
  walkChecksEachRow: true,
  positionsCheckedPerStatement: true,
  intersects(alias, literal, bind) {
    if (literal.kind === 'geometry') {
      return `ST_Intersects(${alias}.geom, ST_SetSRID(ST_GeomFromGeoJSON(${bind(JSON.stringify(literal.value))}), 4326))`;
    }
    return `ST_Intersects(${alias}.geom, ${envelope(literalBox(literal), bind)})`;
  },
  geometryColumn: (alias) => `${alias}.geom`,
  joinJsonList: (json, separator) =>
    `coalesce((SELECT string_agg(t.value, '${sqlText(separator)}' ORDER BY t.n) FROM json_array_elements_text(CAST(${json} AS json)) WITH ORDINALITY AS t(value, n)), '')`,
  joinText: (e, o, separator) => `string_agg(${e}, '${sqlText(separator)}' ORDER BY ${o})`,
  idIn: (column, placeholder) => `${column} = ANY(${placeholder}::integer[])`,
  idsParam: (ids) => ids,
  extentSliceIds: 50_000,
  extent: (featureIds) => `SELECT ST_XMin(e) AS min_x, ST_YMin(e) AS min_y, ST_XMax(e) AS max_x, ST_YMax(e) AS max_y
    FROM (SELECT ST_Extent(geom) AS e FROM features${featureIds ? ` WHERE id IN (${featureIds})` : ''}) t`,
  sortKey: (sql, text) => (text ? `${sql} COLLATE "C"` : sql),
  categoryIds: (from) => `(SELECT string_agg(category_id::text, ',' ORDER BY position) ${from})`,
  joinWords: (e, o) => `string_agg(${e}, ' ' ORDER BY ${o})`,
  searchRow: (id, text) => ({ columns: 'id, document', values: `${id}, to_tsvector('simple', unaccent(${text}))` }),
  searchId: 'id',
  temporaryTable: (name, columns) => `CREATE TEMP TABLE ${name} (${columns}) ON COMMIT DROP`,
  featureBoxes: (alias) => ({
    from: `features ${alias}`,
    columns: `ST_XMin(${alias}.geom) AS min_x, ST_YMin(${alias}.geom) AS min_y, ST_XMax(${alias}.geom) AS max_x, ST_YMax(${alias}.geom) AS max_y`,
  }),
  idTextRows: (pairs, bind) => `(SELECT * FROM unnest(${bind(pairs.map(([id]) => id))}::integer[], ${bind(pairs.map(([, text]) => text))}::text[]) AS t(id, text))`,
  // ICU's root locale lowers as JavaScript's toLowerCase does (SQLite's casefold): İ to i̇, a final Σ to ς,
  // whatever the database's own locale; the result compared by code point like any text.
  caseFold: (sql) => `lower(${sql} COLLATE "und-x-icu") COLLATE "C"`,
  // Case-sensitive, and its default escape is the backslash, as CQL2's.
  like: (value, pattern) => `${value} LIKE ${pattern}`,
  likePattern: (pattern) => pattern,
  bindBoolean: (value) => value,
};

/** Every word as a prefix, in FTS5's query syntax (words are letters and digits: nothing to quote). */
const fts5Query = (words: readonly string[]) => words.map((w) => `"${w}"*`).join(' AND ');

/** Every word as a prefix, in to_tsquery's syntax. */
const tsQuery = (words: readonly string[]) => words.map((w) => `${w}:*`).join(' & ');

/** Ids of the footprints whose R*Tree box meets the box. */
function rtreeCandidates([minX, minY, maxX, maxY]: readonly [number, number, number, number], bind: Bind): string {
  return `SELECT id FROM features_rtree WHERE max_x >= ${bind(minX)} AND min_x <= ${bind(maxX)} AND max_y >= ${bind(minY)} AND min_y <= ${bind(maxY)}`;
}

/** The box as a PostGIS polygon. */
function envelope([minX, minY, maxX, maxY]: readonly [number, number, number, number], bind: Bind): string {
  return `ST_MakeEnvelope(${bind(minX)}, ${bind(minY)}, ${bind(maxX)}, ${bind(maxY)}, 4326)`;
}

/**
 * The R*Tree keeps boxes as 32-bit floats rounded outwards (about 1e-5 degree here), while
 * PostGIS's extent is exact: each side is found exactly (geometry_bound, sqlite.ts) among the
 * few footprints whose R*Tree box is within 0.001 degree of the R*Tree's extreme.
 */
function sqliteExtent(featureIds?: string): string {
  const among = featureIds ? ` WHERE id IN (${featureIds})` : '';
  const side = (name: string, index: number, pick: 'min' | 'max') => {
    const near = pick === 'min' ? `r.${name} <= b.${name} + 0.001` : `r.${name} >= b.${name} - 0.001`;
    return `(SELECT ${pick}(geometry_bound(geometry, ${index})) FROM features WHERE id IN (SELECT r.id FROM r, b WHERE ${near})) AS ${name}`;
  };
  // The boxes (of the features with records, `featureIds`) read once: named in each side's
  // two lookups, the subquery of ids ran eight times (5.5 s for four collections at scale 100).
  return `WITH r AS MATERIALIZED (SELECT id, min_x, min_y, max_x, max_y FROM features_rtree${among}),
    b AS MATERIALIZED (SELECT min(min_x) AS min_x, min(min_y) AS min_y, max(max_x) AS max_x, max(max_y) AS max_y FROM r)
    SELECT ${side('min_x', 0, 'min')}, ${side('min_y', 1, 'min')}, ${side('max_x', 2, 'max')}, ${side('max_y', 3, 'max')}`;
}

/** A separator written by our own code into SQL text: quotes doubled. */
function sqlText(text: string): string {
  return text.replaceAll("'", "''");
}

const GLOB_LITERAL: Readonly<Record<string, string>> = { '*': '[*]', '?': '[?]', '[': '[[]' };
const GLOB_WILDCARD: Readonly<Record<string, string>> = { '%': '*', _: '?' };

/**
 * A CQL2 LIKE pattern (checked: it does not end with a lone escape) as a GLOB pattern:
 * % → *, _ → ?, and GLOB's own *, ? and [ written as one-character classes.
 */
export function likeToGlob(pattern: string): string {
  const chars = [...pattern];
  let glob = '';
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] ?? '';
    if (char === '\\') {
      i += 1;
      const escaped = chars[i] ?? '';
      glob += GLOB_LITERAL[escaped] ?? escaped;
    } else {
      glob += GLOB_WILDCARD[char] ?? GLOB_LITERAL[char] ?? char;
    }
  }
  return glob;
}

/** A fresh parameter list and its binder. */
/** Placeholders numbered after `params` (those of the query so far, when given). */
export function binder(params: unknown[] = []): { bind: Bind; params: unknown[] } {
  return { params, bind: (value) => `$${params.push(value)}` };
}
