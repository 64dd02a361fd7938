// The OGC face's reads in SQL, shared by both stores: what each stored property of
// ogc/properties.ts reads (columns named by catalogue/fields.ts), the tables an item is
// read from, and the queryables a CQL2 filter may name. Over aliases: `f` the feature
// (and its footprint), `s` its site; for records `x` the record and `a` its author.
import { DOCUMENT_KEYS as D, fieldsOf } from '../../catalogue/fields.js';
import type { ListName } from '../../catalogue/lists.js';
import type { Queryable, Queryables, TextIndex } from '../../ogc/cql2/to-sql.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { OGC_PROPERTIES } from '../../ogc/properties.js';
import type { Dialect } from '../dialect.js';

/** `alias.column` of a declared field. */
function col(list: ListName, key: string, alias: string): string {
  const field = fieldsOf(list).find((f) => f.key === key);
  if (field === undefined) throw new Error(`${list} has no field ${key}`);
  return `${alias}.${field.column}`;
}

/** Each feature's `categories`, joined at import (catalogue-finish.ts) and indexed by trigrams for LIKE. */
const CATEGORY_NAMES = 'feature_category_names';

/** Text properties also held in an index serving LIKE: the features whose value passes `test` on its column. */
function textIndexes(d: Dialect): Readonly<Record<string, TextIndex>> {
  return { categories: (test) => `f.id IN (SELECT ${d.searchId} FROM ${CATEGORY_NAMES} WHERE ${test('names')})` };
}

function featureSql(d: Dialect): Record<string, string> {
  // A property named as a field kept as a plain value reads the field's column.
  const plain = fieldsOf('features').filter((field) => field.storage === 'value' && OGC_PROPERTIES.features.some((p) => p.name === field.key));
  return {
    ...Object.fromEntries(plain.map((field) => [field.key, `f.${field.column}`])),
    site_id: col('features', 'site', 'f'), site_name: 's.name',
    categories: `(SELECT n.names FROM ${CATEGORY_NAMES} n WHERE n.${d.searchId} = f.id)`,
    // Drawn from other rows, kept on the feature's (catalogue-finish.ts featureShownSql).
    category_ids: 'f.category_list', tags: 'f.tag_list',
    image_count: 'f.image_count', document_count: 'f.document_count', media_count: 'f.media_count',
  };
}

function recordSql(list: Exclude<CatalogueCollection, 'features'>): Record<string, string> {
  const x = (key: string) => col(list, key, 'x');
  const own: Record<string, string> = { id: x('id'), title: x('title') };
  if (list === 'images') Object.assign(own, { description: x('description'), copyright: x('copyright'), created: x('created') });
  if (list === 'documents') Object.assign(own, { body_html: x('body'), created: x('created'), [D.lastEdited]: x(D.lastEdited) });
  if (list === 'media') Object.assign(own, { url: x('url') });
  return { ...own, author: 'a.username', author_id: 'a.id', feature_id: x('feature'), address: col('features', 'address', 'f') };
}

/** Values the renderer needs beyond the stored properties (for the URL properties). */
const EXTRA_SQL: Readonly<Record<CatalogueCollection, Readonly<Record<string, string>>>> = {
  features: { first_image: 'f.first_image' },
  images: { file: col('images', 'file', 'x') },
  documents: {},
  media: {},
};

export interface OgcSql {
  /** Stored property → its SQL expression. */
  readonly properties: Readonly<Record<string, string>>;
  /** `SELECT` list: every stored property and extra, named as itself, and the footprint. */
  readonly select: string;
  /** `FROM … WHERE` of the collection's published records, to be followed by `AND` conditions. */
  readonly from: string;
  /** The same rows without the joins (each joined row exists): for what reads their own columns alone. */
  readonly ownFrom: string;
  readonly queryables: Queryables;
}

export function ogcSql(collection: CatalogueCollection, dialect: Dialect): OgcSql {
  const properties = collection === 'features' ? featureSql(dialect) : recordSql(collection);
  const declared = OGC_PROPERTIES[collection].filter((p) => p.source === 'stored');
  const missing = declared.filter((p) => properties[p.name] === undefined);
  if (missing.length > 0) throw new Error(`no SQL for ${collection} properties ${missing.map((p) => p.name).join(', ')}`);
  const columns = { ...Object.fromEntries(declared.map((p) => [p.name, properties[p.name] ?? ''])), ...EXTRA_SQL[collection] };
  const select = [...Object.entries(columns).map(([name, sql]) => `${sql} AS ${name}`), 'f.geometry AS geometry'].join(', ');
  const from = collection === 'features'
    ? 'FROM features f LEFT JOIN sites s ON s.id = f.site_id WHERE TRUE'
    : `FROM ${collection} x JOIN authors a ON a.id = x.author_id JOIN features f ON f.id = x.feature_id WHERE x.position IS NOT NULL`;
  const ownFrom = collection === 'features' ? 'FROM features f WHERE TRUE' : `FROM ${collection} x WHERE x.position IS NOT NULL`;
  const queryables: Record<string, Queryable> = { geometry: { type: 'geometry', sql: 'f' } };
  const indexes = collection === 'features' ? textIndexes(dialect) : {};
  for (const p of declared) {
    if (!p.queryable) continue;
    const textIndex = indexes[p.name];
    queryables[p.name] = { type: p.type, sql: properties[p.name] ?? '', ...(textIndex ? { textIndex } : {}) };
  }
  return { properties, select, from, ownFrom, queryables };
}
