// A record's fields ↔ its table's columns, derived from the one declaration of the fields
// (catalogue/fields.ts): the values a load writes, the column list a read selects (each
// column named as its key), and the record or wire fields made back from a result row.
import { fieldsOf, type Field, type WireFields, type WireForm } from '../catalogue/fields.js';
import type { CatalogueRecord, ListName } from '../catalogue/lists.js';
import type { CategoryIdList } from './dialect.js';

function storedValue(field: Field, value: unknown): unknown {
  return field.storage === 'json' ? JSON.stringify(value) : value;
}

/** A record → its table row (column → value); fields kept in rows of their own are left out. */
export function recordColumns(list: ListName, record: CatalogueRecord): Record<string, unknown> {
  const given: Readonly<Record<string, unknown>> = record;
  const row: Record<string, unknown> = {};
  for (const field of fieldsOf(list)) if (field.storage !== 'rows') row[field.column] = storedValue(field, given[field.key]);
  return row;
}

/** A stored value → the field's value (SQLite gives booleans as 0/1, an aggregate of no rows as null). */
function fieldValue(field: Field, value: unknown): unknown {
  switch (field.storage) {
    case 'boolean': return Boolean(value);
    case 'json': return JSON.parse(String(value));
    case 'rows': return value === null || value === '' ? [] : String(value).split(',').map(Number);
    case 'value': return value;
  }
}

/** `table.column AS prefixkey`; a `rows` field through the store's id list (reading records whole). */
function selected(field: Field, table: string, prefix: string, categoryIds?: CategoryIdList): string {
  const name = `${prefix}${field.key}`;
  if (field.storage === 'rows') {
    if (!categoryIds) throw new Error(`${field.key} has no column of its own`);
    return `${categoryIds(`FROM feature_categories WHERE feature_id = ${table}.id`)} AS ${name}`;
  }
  return field.column === name ? `${table}.${field.column}` : `${table}.${field.column} AS ${name}`;
}

/** Every column of a list, for reading records back whole (export, SQLite's schema upgrade). */
export function recordColumnList(list: ListName, table: string, categoryIds: CategoryIdList): string {
  return fieldsOf(list).map((f) => selected(f, table, '', categoryIds)).join(', ');
}

function fromRow(fields: readonly Field[], row: Readonly<Record<string, unknown>>, prefix: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) values[field.key] = fieldValue(field, row[`${prefix}${field.key}`]);
  return values;
}

/** A row selected with recordColumnList → the record, keys in file order. */
export function recordFromRow<L extends ListName>(list: L, row: Readonly<Record<string, unknown>>): CatalogueRecord<L> {
  // The row was written from a record of this list (recordColumns), so it holds one.
  return fromRow(fieldsOf(list), row, '') as CatalogueRecord<L>;
}

/** The fields of a list that one wire form carries as stored, found once. */
export class WireColumns<L extends ListName, F extends WireForm> {
  private readonly fields: readonly Field[];

  constructor(list: L, form: F) {
    this.fields = fieldsOf(list).filter((f) => f.wire.includes(form));
  }

  /** Their columns, named `prefix` + key. */
  select(table: string, prefix = ''): string {
    return this.fields.map((f) => selected(f, table, prefix)).join(', ');
  }

  /** A row selected with select(…, prefix) → those fields. */
  read(row: Readonly<Record<string, unknown>>, prefix = ''): WireFields<L, F> {
    // As recordFromRow: the columns hold what the declaration says.
    return fromRow(this.fields, row, prefix) as WireFields<L, F>;
  }
}
