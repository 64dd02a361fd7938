// Filters → SQL conditions over features `f` (and, for records, the record `x` joined to
// its feature `f`). Each condition is answered by an index: see the schemas.
import type { Bind, Dialect } from './dialect.js';
import type { Filters } from './filters.js';
import type { CollectionName } from './store.js';

const ATTACHMENT_TABLES = ['images', 'documents', 'media'] as const;

export function filterConditions(collection: CollectionName, filters: Filters, dialect: Dialect, bind: Bind): string[] {
  const features = collection === 'features';
  const list = (values: readonly unknown[]) => values.map(bind).join(', ');
  const conditions: string[] = [];
  const add = (condition: string) => conditions.push(condition);
  const { words, author, categories, tags, yearRange, dateRange, featureTypes, site, street, postcode, bbox, feature } = filters;

  // First, so that SQLite drives the query from the R*Tree: a map view is a small box, far
  // more selective than a common word.
  if (bbox) add(dialect.intersectsBox(bbox, bind));
  if (words) add(`${features ? 'f' : 'x'}.id IN (${dialect.textMatch(`${collection}_search`, words, bind)})`);
  if (author !== undefined) {
    if (features) {
      const by = ATTACHMENT_TABLES.map((t) => `SELECT feature_id FROM ${t} WHERE author_id = ${bind(author)} AND position IS NOT NULL`);
      add(`f.id IN (${by.join(' UNION ')})`);
    } else add(`x.author_id = ${bind(author)}`);
  }
  if (categories) add(`f.id IN (SELECT feature_id FROM feature_categories WHERE category_id IN (${list(categories)}))`);
  if (tags) add(`f.id IN (SELECT feature_id FROM feature_tags WHERE tag IN (${list(tags)}))`);
  if (yearRange) {
    add(`f.current >= ${bind(yearRange.from)}`);
    if (yearRange.to !== null) add(`f.current <= ${bind(yearRange.to)}`);
  }
  if (dateRange) {
    add(`x.created >= ${bind(dateRange.from)}`);
    if (dateRange.to !== null) add(`x.created <= ${bind(dateRange.to)}`);
  }
  if (featureTypes) add(`f.feature_type IN (${list(featureTypes)})`);
  if (site !== undefined) add(`f.site_id = ${bind(site)}`);
  if (street !== undefined) add(`f.street_key = ${bind(street)}`);
  if (postcode !== undefined) add(`f.postcode_key = ${bind(postcode)}`);
  if (feature !== undefined) add(`x.feature_id = ${bind(feature)}`);
  return conditions;
}
