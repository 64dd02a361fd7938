// The three feature forms of the spec: listed (by /features/), nested in images and
// documents (with search_str and tags), nested in media (without either).
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { CategoryRow, FeatureBaseRow, FeatureRow, NestedFeatureRow } from '../store/store.js';
import { mediaUrl } from './media-url.js';

export function renderCategory(c: CategoryRow, baseUrl: string) {
  return { id: c.id, name: c.name, description: c.description, thumbnail: mediaUrl(baseUrl, c.thumbnail) };
}

export function renderListedFeature(f: FeatureRow, baseUrl: string) {
  return {
    id: f.id,
    type: 'Feature',
    geometry: f.geometry,
    properties: {
      [F.name]: f[F.name],
      [F.address]: f[F.address],
      [F.postalCode]: f[F.postalCode],
      street: f.street,
      categories: f.categories.map((c) => renderCategory(c, baseUrl)),
      count: f.count,
      current: f.current,
      site: f.site === null ? null : { id: f.site.id, name: f.site.name },
      [F.type]: f[F.type],
      documents: f.documents,
      images: f.images,
      media: f.media,
    },
  };
}

export function renderFeatureCollection(features: FeatureRow[], baseUrl: string) {
  return { type: 'FeatureCollection', features: features.map((f) => renderListedFeature(f, baseUrl)) };
}

/** Nested in media records: no search_str, no tags. Null strings render as "". */
export function renderMediaFeature(f: FeatureBaseRow) {
  return { id: f.id, type: 'Feature', geometry: f.geometry, properties: nestedProperties(f) };
}

/** Nested in images and documents: search_str in properties, tags beside them. */
export function renderSearchableFeature(f: NestedFeatureRow) {
  return {
    id: f.id,
    type: 'Feature',
    geometry: f.geometry,
    properties: { ...nestedProperties(f), [F.searchText]: f[F.searchText] },
    tags: f.tags,
  };
}

function nestedProperties(f: FeatureBaseRow) {
  return {
    [F.number]: f[F.number] ?? '',
    [F.name]: f[F.name] ?? '',
    [F.street]: f[F.street] ?? '',
    [F.address]: f[F.address],
    [F.type]: f[F.type],
    count: f.count,
  };
}
