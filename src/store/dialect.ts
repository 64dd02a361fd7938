// The few places where SQLite and PostgreSQL need different SQL, as one object per store
// handed to the shared SQL builders: full-text matching and search rows, the map-box test,
// "id in this list", ordered aggregates, staging tables, the footprints' extent. Everything else (sql.ts,
// filter-sql.ts, catalogue-finish.ts, export-rows.ts) is shared.

/** Adds a parameter and returns its placeholder (`$n`, numbered in order of use). */
export type Bind = (value: unknown) => string;

/** A feature's category ids in their order, as one comma-separated text, from `FROM … WHERE …`. */
export type CategoryIdList = (from: string) => string;

export interface Dialect {
  /** A subquery selecting the ids in `table` (e.g. features_search) matching every word as a prefix. */
  textMatch(table: string, words: readonly string[], bind: Bind): string;
  /** A condition on features `f`: the footprint intersects the box. */
  intersectsBox(box: readonly [number, number, number, number], bind: Bind): string;
  /** A condition: `column` is one of the ids given as parameter `placeholder` (see idsParam). */
  idIn(column: string, placeholder: string): string;
  /** The parameter value idIn expects for a list of ids. */
  idsParam(ids: readonly number[]): unknown;
  /** One row: min_x, min_y, max_x, max_y of every footprint (nulls when there is none). */
  extent: string;
  /** A feature's category ids in their order, as one comma-separated text. */
  categoryIds: CategoryIdList;
  /** An ordered string aggregate, words one space apart. */
  joinWords(expression: string, orderBy: string): string;
  /** The column list and value of a search-table row from its text. */
  searchRow(idExpression: string, textExpression: string): { columns: string; values: string };
  /** A table of the loading connection's own (staging), gone by the end of the load. */
  temporaryTable(name: string, columns: string): string;
}

export const SQLITE_DIALECT: Dialect = {
  textMatch(table, words, bind) {
    const query = words.map((w) => `"${w}"*`).join(' AND ');
    return `SELECT id FROM ${table} WHERE ${table} MATCH ${bind(query)}`;
  },
  intersectsBox([minX, minY, maxX, maxY], bind) {
    // R*Tree candidates by bounding box, then the exact polygon test.
    const candidates = `SELECT id FROM features_rtree WHERE max_x >= ${bind(minX)} AND min_x <= ${bind(maxX)} AND max_y >= ${bind(minY)} AND min_y <= ${bind(maxY)}`;
    return `f.id IN (${candidates}) AND intersects_box(f.geometry, ${bind(minX)}, ${bind(minY)}, ${bind(maxX)}, ${bind(maxY)})`;
  },
  idIn: (column, placeholder) => `${column} IN (SELECT value FROM json_each(${placeholder}))`,
  idsParam: (ids) => JSON.stringify(ids),
  extent: 'SELECT min(min_x) AS min_x, min(min_y) AS min_y, max(max_x) AS max_x, max(max_y) AS max_y FROM features_rtree',
  categoryIds: (from) => `(SELECT group_concat(category_id, ',' ORDER BY position) ${from})`,
  joinWords: (e, o) => `group_concat(${e}, ' ' ORDER BY ${o})`,
  searchRow: (id, text) => ({ columns: 'id, text', values: `${id}, ${text}` }),
  // Dropped by the load itself (sqlite-load.ts), before and after.
  temporaryTable: (name, columns) => `CREATE TEMP TABLE ${name} (${columns})`,
};

export const POSTGRES_DIALECT: Dialect = {
  textMatch(table, words, bind) {
    const query = words.map((w) => `${w}:*`).join(' & ');
    // text_query (migration 4): to_tsquery('simple', unaccent(…)), computed once per query.
    return `SELECT id FROM ${table} WHERE document @@ text_query(${bind(query)})`;
  },
  intersectsBox([minX, minY, maxX, maxY], bind) {
    return `ST_Intersects(f.geom, ST_MakeEnvelope(${bind(minX)}, ${bind(minY)}, ${bind(maxX)}, ${bind(maxY)}, 4326))`;
  },
  idIn: (column, placeholder) => `${column} = ANY(${placeholder}::integer[])`,
  idsParam: (ids) => ids,
  extent: `SELECT ST_XMin(e) AS min_x, ST_YMin(e) AS min_y, ST_XMax(e) AS max_x, ST_YMax(e) AS max_y
    FROM (SELECT ST_Extent(geom) AS e FROM features) t`,
  categoryIds: (from) => `(SELECT string_agg(category_id::text, ',' ORDER BY position) ${from})`,
  joinWords: (e, o) => `string_agg(${e}, ' ' ORDER BY ${o})`,
  searchRow: (id, text) => ({ columns: 'id, document', values: `${id}, to_tsvector('simple', unaccent(${text}))` }),
  temporaryTable: (name, columns) => `CREATE TEMP TABLE ${name} (${columns}) ON COMMIT DROP`,
};

/** A fresh parameter list and its binder. */
export function binder(): { bind: Bind; params: unknown[] } {
  const params: unknown[] = [];
  return { params, bind: (value) => `$${params.push(value)}` };
}
