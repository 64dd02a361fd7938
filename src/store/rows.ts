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

/** A row of selectExtras (sql.ts): a category (kind 0) or an attachment's summary (1–3). */
export interface FlatExtra {
  kind: number;
  feature_id: number;
  id: number;
  label: string;
  description: string | null;
  thumbnail: string | null;
  author_id: number | null;
  username: string | null;
}

/** What belongs to each feature of a page, by feature id. */
export interface FeatureExtras {
  categories: Map<number, CategoryRow[]>;
  documents: Map<number, AttachmentSummaryRow[]>;
  images: Map<number, AttachmentSummaryRow[]>;
  media: Map<number, AttachmentSummaryRow[]>;
}

/** selectExtras's rows, each kind by feature id, in the order read. */
export function groupExtras(rows: FlatExtra[]): FeatureExtras {
  const kind = (k: number) => rows.filter((r) => r.kind === k);
  return {
    categories: groupBy(kind(0), (r) => ({ id: r.id, name: r.label, description: r.description!, thumbnail: r.thumbnail! })),
    documents: groupBy(kind(1), summaryOf),
    images: groupBy(kind(2), summaryOf),
    media: groupBy(kind(3), summaryOf),
  };
}

const summaryOf = (r: FlatExtra): AttachmentSummaryRow => ({ id: r.id, title: r.label, author: { id: r.author_id!, username: r.username! } });

function groupBy<R extends { feature_id: number }, T>(rows: R[], map: (row: R) => T): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.feature_id);
    if (group) group.push(map(row));
    else groups.set(row.feature_id, [map(row)]);
  }
  return groups;
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
