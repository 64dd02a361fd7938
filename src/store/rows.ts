// Flat SQL result rows → the typed rows of store.ts. Both stores select the same column
// aliases, so this mapping is shared. The fields a row carries as stored are those the
// declaration (catalogue/fields.ts) gives its wire form; the rest are joined or computed.
import { JsonText } from '../json-text.js';
import { WireColumns } from './record-columns.js';
import type {
  AttachmentSummaryRow,
  CategoryRow,
  DocumentRow,
  FeatureRow,
  ImageRow,
  MediaRow,
  NestedFeatureRow,
} from './store.js';

/** A driver's row: its cells by column alias, each unknown until read. */
export type Cells = Readonly<Record<string, unknown>>;

const isCells = (row: unknown): row is Cells => typeof row === 'object' && row !== null;

function cellsOf(row: unknown): Cells {
  if (!isCells(row)) throw new TypeError(`a query's row is ${row === null ? 'null' : typeof row}, not an object`);
  return row;
}

/** A query's rows, as a plan's `yield` gives them, each read by `read`: the typed rows of the plans written once for both stores. */
export function readRows<T>(rows: unknown[], read: (cells: Cells) => T): T[] {
  return rows.map((row) => read(cellsOf(row)));
}

/** The first of a query's rows read by `read`; null when there is none. */
export function firstRow<T>(rows: unknown[], read: (cells: Cells) => T): T | null {
  return rows.length === 0 ? null : read(cellsOf(rows[0]));
}

/** A number as either driver gives it (PostgreSQL's bigint and numeric as text). */
export const num = (cell: unknown): number => Number(cell);

export const numOrNull = (cell: unknown): number | null => (cell === null || cell === undefined ? null : Number(cell));

export function text(cell: unknown): string {
  if (typeof cell !== 'string') throw new TypeError(`a text column holds ${cell === null ? 'null' : typeof cell}`);
  return cell;
}

export const textOrNull = (cell: unknown): string | null => (cell === null || cell === undefined ? null : text(cell));

/** A text column that holds one of `values` (a CHECK or the code keeps it so): read as that type. */
export function oneOf<T extends string>(values: readonly T[]): (cell: unknown) => T {
  return (cell) => {
    const found = values.find((value) => value === cell);
    if (found === undefined) throw new TypeError(`a column holds ${JSON.stringify(cell)}, not one of ${values.join(', ')}`);
    return found;
  };
}

/** What a listed feature carries as stored, and what a nested one does (columns `f_` + key). */
export const LISTED_FEATURE = new WireColumns('features', 'listed');
export const NESTED_FEATURE = new WireColumns('features', 'nested');
export const NESTED_PREFIX = 'f_';

/** What each record carries as stored. */
export const RECORD_FIELDS = {
  images: new WireColumns('images', 'record'),
  documents: new WireColumns('documents', 'record'),
  media: new WireColumns('media', 'record'),
};

/** A feature's row: its declared columns by key, and these. */
export interface FlatFeature {
  readonly [column: string]: unknown;
  id: number;
  item_count: number;
  geometry: string;
  site_id: number | null;
  site_name: string | null;
}

/** A record's row: its declared columns by key, its author, and its feature's columns (`f_` + key). */
export interface FlatRecord {
  readonly [column: string]: unknown;
  author_id: number;
  username: string;
  f_item_count: number;
  f_geometry: string;
}

/** A row of selectExtras (sql.ts): a category (kind 0) or an attachment's summary (1–3, by its author). */
export type FlatExtra = FlatCategory | FlatSummary;

interface FlatExtraBase {
  feature_id: number;
  id: number;
  label: string;
}

interface FlatCategory extends FlatExtraBase {
  kind: 0;
  description: string;
  thumbnail: string;
  author_id: null;
  username: null;
}

interface FlatSummary extends FlatExtraBase {
  kind: 1 | 2 | 3;
  description: null;
  thumbnail: null;
  author_id: number;
  username: string;
}

/** What belongs to each feature of a page, by feature id. */
export interface FeatureExtras {
  categories: Map<number, CategoryRow[]>;
  documents: Map<number, AttachmentSummaryRow[]>;
  images: Map<number, AttachmentSummaryRow[]>;
  media: Map<number, AttachmentSummaryRow[]>;
}

const SUMMARY_KINDS = { 1: 'documents', 2: 'images', 3: 'media' } as const;

/** selectExtras's rows, each kind by feature id, in the order read. */
export function groupExtras(rows: FlatExtra[]): FeatureExtras {
  const extras: FeatureExtras = { categories: new Map(), documents: new Map(), images: new Map(), media: new Map() };
  for (const r of rows) {
    if (r.kind === 0) addTo(extras.categories, r.feature_id, { id: r.id, name: r.label, description: r.description, thumbnail: r.thumbnail });
    else addTo(extras[SUMMARY_KINDS[r.kind]], r.feature_id, { id: r.id, title: r.label, author: { id: r.author_id, username: r.username } });
  }
  return extras;
}

function addTo<T>(groups: Map<number, T[]>, featureId: number, item: T): void {
  const group = groups.get(featureId);
  if (group) group.push(item);
  else groups.set(featureId, [item]);
}

export function toFeatureRow(f: FlatFeature, extras: FeatureExtras): FeatureRow {
  return {
    ...LISTED_FEATURE.read(f),
    count: f.item_count,
    geometry: new JsonText(f.geometry),
    site: f.site_id === null ? null : { id: f.site_id, name: f.site_name ?? '' },
    categories: extras.categories.get(f.id) ?? [],
    documents: extras.documents.get(f.id) ?? [],
    images: extras.images.get(f.id) ?? [],
    media: extras.media.get(f.id) ?? [],
  };
}

function toNestedFeature(r: FlatRecord): NestedFeatureRow {
  return { ...NESTED_FEATURE.read(r, NESTED_PREFIX), count: r.f_item_count, geometry: new JsonText(r.f_geometry) };
}

function recordBase(r: FlatRecord) {
  return { author: { id: r.author_id, username: r.username }, feature: toNestedFeature(r) };
}

export function toImageRow(r: FlatRecord): ImageRow {
  return { ...RECORD_FIELDS.images.read(r), ...recordBase(r) };
}

export function toDocumentRow(r: FlatRecord): DocumentRow {
  return { ...RECORD_FIELDS.documents.read(r), ...recordBase(r) };
}

export function toMediaRow(r: FlatRecord): MediaRow {
  return { ...RECORD_FIELDS.media.read(r), ...recordBase(r) };
}
