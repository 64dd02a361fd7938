// Flat SQL result rows → the typed rows of store.ts. Both stores select the same column
// aliases, so this mapping is shared.
import type { FeatureType } from '../catalogue/format.js';
import { JsonText } from '../json-text.js';
import type {
  AttachmentSummaryRow,
  CategoryRow,
  DocumentRow,
  FeatureRow,
  ImageRow,
  MediaRow,
  NestedFeatureRow,
} from './store.js';

export interface FlatFeature {
  id: number;
  feature_type: string;
  b_number: string | null;
  b_name: string | null;
  street: string | null;
  postcode: string;
  address: string;
  current: number | null;
  item_count: number;
  geometry: string;
  site_id: number | null;
  site_name: string | null;
}

export interface FlatRecord {
  id: number;
  title: string;
  author_id: number;
  username: string;
  f_id: number;
  f_feature_type: string;
  f_b_number: string | null;
  f_b_name: string | null;
  f_street: string | null;
  f_address: string;
  f_item_count: number;
  f_search_str: string;
  f_tags: string;
  f_geometry: string;
}

export interface FlatCategory extends CategoryRow {
  feature_id: number;
}

export interface FlatSummary {
  feature_id: number;
  id: number;
  title: string;
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

export function groupCategories(rows: FlatCategory[]): Map<number, CategoryRow[]> {
  return groupBy(rows, (r) => ({ id: r.id, name: r.name, description: r.description, thumbnail: r.thumbnail }));
}

export function groupSummaries(rows: FlatSummary[]): Map<number, AttachmentSummaryRow[]> {
  return groupBy(rows, (r) => ({ id: r.id, title: r.title, author: { id: r.author_id, username: r.username } }));
}

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
    id: f.id,
    feature_type: f.feature_type as FeatureType,
    b_number: f.b_number,
    b_name: f.b_name,
    street: f.street,
    postcode: f.postcode,
    address: f.address,
    current: f.current,
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
  return {
    id: r.f_id,
    feature_type: r.f_feature_type as FeatureType,
    b_number: r.f_b_number,
    b_name: r.f_b_name,
    street: r.f_street,
    address: r.f_address,
    count: r.f_item_count,
    search_str: r.f_search_str,
    tags: JSON.parse(r.f_tags),
    geometry: new JsonText(r.f_geometry),
  };
}

function recordBase(r: FlatRecord) {
  return { id: r.id, title: r.title, author: { id: r.author_id, username: r.username }, feature: toNestedFeature(r) };
}

export function toImageRow(r: FlatRecord & { file: string; description: string; copyright: number | boolean; created: string | null }): ImageRow {
  return { ...recordBase(r), file: r.file, description: r.description, copyright: Boolean(r.copyright), created: r.created };
}

export function toDocumentRow(r: FlatRecord & { body: string; created: string; last_edited: string }): DocumentRow {
  return { ...recordBase(r), body: r.body, created: r.created, last_edited: r.last_edited };
}

export function toMediaRow(r: FlatRecord & { url: string }): MediaRow {
  return { ...recordBase(r), url: r.url };
}
