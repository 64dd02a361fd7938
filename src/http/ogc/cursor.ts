// The `after` and `before` values of next and prev links: the sort keys and id of the row a
// page starts after (or ends before), as base64url JSON. Opaque to clients, checked on the
// way back in: a value that is not one of ours (or belongs to another sortby) is a 400. Each
// key must be a value its property can hold, as a row of ours would give it: a forged one
// (text for an integer, 1.5, 2147483648, NUL) made PostgreSQL fail where SQLite answered.
import { dateProblem } from '../../ogc/cql2/literals.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { propertyOf, type OgcProperty } from '../../ogc/properties.js';
import { orderKeys, type KeyValue, type SortKey } from '../../store/ogc-plans.js';
import { isStorableText, isStoredInteger } from '../../store/stored-values.js';

export function writeCursor(keys: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify(keys)).toString('base64url');
}

/** The keys, or null when the value is not a cursor for this collection and sortby. */
export function readCursor(token: string, collection: CatalogueCollection, sortBy: readonly SortKey[]): KeyValue[] | null {
  if (!/^[A-Za-z0-9_-]{1,4000}$/.test(token)) return null;
  let keys: unknown;
  try {
    keys = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const expected = orderKeys(sortBy);
  if (!Array.isArray(keys) || keys.length !== expected.length) return null;
  const fits = keys.every((value: unknown, i) => {
    const property = propertyOf(collection, expected[i]?.property ?? '');
    return property !== undefined && holds(property, value);
  });
  return fits ? (keys as KeyValue[]) : null;
}

function holds(property: OgcProperty, value: unknown): boolean {
  if (value === null) return property.nullable;
  switch (property.type) {
    case 'integer': return typeof value === 'number' && isStoredInteger(value);
    case 'boolean': return typeof value === 'boolean';
    case 'date': return typeof value === 'string' && dateProblem(value) === undefined;
    case 'string': return typeof value === 'string' && isStorableText(value);
  }
}
