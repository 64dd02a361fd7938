// The `after` and `before` values of next and prev links: the sort keys and id of the row a
// page starts after (or ends before), as base64url JSON. Opaque to clients, checked on the
// way back in: a value that is not one of ours (or belongs to another sortby) is a 400.
import { orderKeys, type KeyValue, type SortKey } from '../../store/ogc-plans.js';

export function writeCursor(keys: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify(keys)).toString('base64url');
}

/** The keys, or null when the value is not a cursor for this sortby. */
export function readCursor(token: string, sortBy: readonly SortKey[]): KeyValue[] | null {
  if (!/^[A-Za-z0-9_-]{1,4000}$/.test(token)) return null;
  let keys: unknown;
  try {
    keys = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const expected = orderKeys(sortBy);
  if (!Array.isArray(keys) || keys.length !== expected.length) return null;
  const values: KeyValue[] = keys.filter(isKeyValue);
  if (values.length !== keys.length) return null;
  const id = expected.findIndex((k) => k.property === 'id');
  return Number.isSafeInteger(values[id]) ? values : null;
}

function isKeyValue(value: unknown): value is KeyValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
