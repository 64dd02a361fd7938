// Filters → SQL conditions over features `f` (and, for records, the record `x` joined to
// its feature `f`). Each condition is answered by an index: see the schemas.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { Bind, Dialect } from './dialect.js';
import type { Filters } from './filters.js';
import type { CollectionName } from './store.js';
import { isStorableText } from './stored-values.js';

const ATTACHMENT_TABLES = ['images', 'documents', 'media'] as const;

/**
 * Which index finds the candidates of a query with both words and a box: the spatial index
 * (each candidate's text then checked) or the text index (each match's footprint then
 * checked). Chosen by read-plans.ts's drivingIndex from what the indexes hold: neither
 * store's planner weighs them well (SQLite has no statistics for virtual tables; PostgreSQL
 * walks ids in order for a page, expecting a box's footprints spread over them).
 */
export type Driving = 'box' | 'text';

export function filterConditions(collection: CollectionName, filters: Filters, dialect: Dialect, bind: Bind, driving: Driving = 'box'): string[] {
  const features = collection === 'features';
  const list = (values: readonly unknown[]) => values.map(bind).join(', ');
  const conditions: string[] = [];
  const add = (condition: string) => conditions.push(condition);
  const { words, author, categories, tags, yearRange, dateRange, featureTypes, site, street, [F.postalCode]: postalCode, bbox, feature } = filters;

  const id = `${features ? 'f' : 'x'}.id`;
  const searchTable = `${collection}_search`;
  if (bbox && words && driving === 'text') {
    add(`${id} IN (${dialect.textMatch(searchTable, words, bind)})`);
    add(dialect.boxCheck(bbox, bind));
  } else {
    // The box first, so that SQLite drives the query from the R*Tree.
    if (bbox) add(dialect.intersectsBox(bbox, bind));
    if (words) add(bbox ? dialect.textCheck(searchTable, id, words, bind) : `${id} IN (${dialect.textMatch(searchTable, words, bind)})`);
  }
  if (author !== undefined) {
    if (features) {
      const by = ATTACHMENT_TABLES.map((t) => `SELECT feature_id FROM ${t} WHERE author_id = ${bind(author)} AND position IS NOT NULL`);
      add(`f.id IN (${by.join(' UNION ')})`);
    } else add(`x.author_id = ${bind(author)}`);
  }
  if (categories) add(`f.id IN (SELECT feature_id FROM feature_categories WHERE category_id IN (${list(categories)}))`);
  // Text no stored value can equal (NUL) matches nothing, as SQLite always answered: PostgreSQL cannot be sent it.
  const equalsText = (column: string, values: readonly string[]) => {
    const storable = values.filter(isStorableText);
    return storable.length === 0 ? 'FALSE' : `${column} IN (${list(storable)})`;
  };
  if (tags) add(`f.id IN (SELECT feature_id FROM feature_tags WHERE ${equalsText('tag', tags)})`);
  if (yearRange) {
    add(`f.current >= ${bind(yearRange.from)}`);
    if (yearRange.to !== null) add(`f.current <= ${bind(yearRange.to)}`);
  }
  if (dateRange) {
    add(`x.created >= ${bind(dateRange.from)}`);
    if (dateRange.to !== null) add(`x.created <= ${bind(dateRange.to)}`);
  }
  if (featureTypes) add(`f.${F.type} IN (${list(featureTypes)})`);
  if (site !== undefined) add(`f.site_id = ${bind(site)}`);
  if (street !== undefined) add(isStorableText(street) ? `f.street_key = ${bind(street)}` : 'FALSE');
  if (postalCode !== undefined) add(isStorableText(postalCode) ? `f.postcode_key = ${bind(postalCode)}` : 'FALSE');
  if (feature !== undefined) add(`x.feature_id = ${bind(feature)}`);
  return conditions;
}
