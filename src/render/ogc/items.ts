// Items of the OGC face as GeoJSON: flat, typed properties in declaration order (the made
// ones, URLs and a document's plain text, filled in here), the footprint as stored, and
// the page's links (next and prev keep every parameter; only after/before change).
import { randomUUID } from 'node:crypto';
import { API_PREFIX, CONTENT_TYPE_GEOJSON, CONTENT_TYPE_IIIF_PRESENTATION, CONTENT_TYPE_JSON } from '../../constants.js';
import { JsonText } from '../../json-text.js';
import { DEFAULT_CRS, footprintIn, type OfferedCrs } from '../../ogc/crs.js';
import { OGC_PATHS } from '../../ogc/paths.js';
import { IIIF_PATHS } from '../../pages/paths.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { propertiesOf } from '../../ogc/properties.js';
import { htmlText } from '../../search/text.js';
import type { ItemRow, ItemsPage, KeyValue } from '../../store/ogc/ogc-plans.js';
import { mediaUrl } from '../media-url.js';
import { link, type Link } from './links.js';

export interface ItemOptions {
  /** Property names to include; null: all. */
  readonly properties: readonly string[] | null;
  readonly skipGeometry: boolean;
  /** The CRS of the geometry written (ogc/crs.ts). */
  readonly crs: OfferedCrs;
}

/** Every property and the geometry in CRS84: an item as written when no parameter narrows it. */
export const ALL_OF_EACH_ITEM: ItemOptions = { properties: null, skipGeometry: false, crs: DEFAULT_CRS };

export interface ItemBody {
  type: 'Feature';
  id: number;
  geometry: JsonText | null;
  properties: Record<string, KeyValue>;
  links?: Link[];
}

type Made = (row: ItemRow, baseUrl: string, collection: CatalogueCollection) => KeyValue;

const text = (value: KeyValue | undefined) => (typeof value === 'string' ? value : null);

/** The values the renderer makes, from stored ones (ogc/properties.ts: source `made`). */
const MADE: Readonly<Record<string, Made>> = {
  api_url: (row, baseUrl, collection) => `${baseUrl}${API_PREFIX}${collection}/${row.id}/`,
  page_url: (row, baseUrl, collection) => `${baseUrl}${OGC_PATHS.item(collection, row.id)}?f=html`,
  thumbnail: (row, baseUrl) => {
    const file = text(row.values.first_image);
    return file === null ? null : mediaUrl(baseUrl, file);
  },
  file_url: (row, baseUrl) => mediaUrl(baseUrl, text(row.values.file) ?? ''),
  text: (row) => htmlText(text(row.values.body_html) ?? '').replace(/\s+/g, ' ').trim(),
};

export function renderItem(row: ItemRow, baseUrl: string, collection: CatalogueCollection, options: ItemOptions): ItemBody {
  const properties: Record<string, KeyValue> = {};
  for (const property of propertiesOf(collection)) {
    if (options.properties !== null && !options.properties.includes(property.name)) continue;
    const made = MADE[property.name];
    properties[property.name] = property.source === 'made' && made ? made(row, baseUrl, collection) : (row.values[property.name] ?? null);
  }
  return { type: 'Feature', id: row.id, geometry: options.skipGeometry ? null : geometryIn(options.crs, row.geometry), properties };
}

/** The stored footprint as is in CRS84 (its text spliced in), else transformed. */
function geometryIn(crs: OfferedCrs, geometry: JsonText | null): JsonText | null {
  if (geometry === null || crs.uri === DEFAULT_CRS.uri) return geometry;
  return new JsonText(JSON.stringify(footprintIn(crs, geometry.text)));
}

/**
 * An item of a page as GeoJSON text: the bytes stringifyAnswer writes for it (the keys in
 * renderItem's order, the footprint's stored text spliced in), written directly. A page's
 * items were most of its stringify's work (every footprint a marker to find and replace).
 */
export function itemText(item: ItemBody): string {
  return `{"type":"Feature","id":${JSON.stringify(item.id)},"geometry":${item.geometry === null ? 'null' : item.geometry.text},"properties":${JSON.stringify(item.properties)}}`;
}

/**
 * The base URL's place in a stored item text: a raw U+0001, which JSON.stringify never writes
 * (it escapes every control character), so it stands for nothing else.
 */
const BASE_URL_PLACE = '\u0001';
/** The base URL a stored text is rendered with: unique, so its JSON form is found only where renderItem put it. */
const BASE_URL_MARK = `\u0002${randomUUID()}\u0002`;
const BASE_URL_MARK_JSON = JSON.stringify(BASE_URL_MARK).slice(1, -1);

/**
 * A feature's item text as kept on its row (store/apply/item-texts.ts): itemText with every
 * property and the footprint in CRS84, the base URL left as BASE_URL_PLACE (made properties
 * are URLs under it), filled in per answer by `fromStoredText`.
 */
export function storedItemText(row: ItemRow): string {
  return itemText(renderItem(row, BASE_URL_MARK, 'features', ALL_OF_EACH_ITEM)).replaceAll(BASE_URL_MARK_JSON, BASE_URL_PLACE);
}

/** A stored item text with the answer's base URL, written as JSON writes it: what itemText gives for that base URL. */
export function fromStoredText(text: string, baseUrlJson: string): string {
  return text.replaceAll(BASE_URL_PLACE, baseUrlJson);
}

/** Rows as text when the request asked for them so (ItemsRequest.asText): every property, the footprint in CRS84, in a JSON answer. */
export function readsStoredText(collection: CatalogueCollection, options: ItemOptions, forPage: boolean): boolean {
  return !forPage && collection === 'features' && options.properties === null && !options.skipGeometry && options.crs.uri === DEFAULT_CRS.uri;
}

/** One item alone, with its links (/req/core/f-links). */
export function renderSingleItem(row: ItemRow, baseUrl: string, collection: CatalogueCollection, options: ItemOptions): ItemBody {
  const self = `${baseUrl}${OGC_PATHS.item(collection, row.id)}`;
  return {
    ...renderItem(row, baseUrl, collection, options),
    links: [
      link(self, 'self', CONTENT_TYPE_GEOJSON, 'This item'),
      link(`${self}?f=json`, 'alternate', CONTENT_TYPE_JSON, 'This item as plain JSON'),
      link(`${self}?f=html`, 'alternate', 'text/html', 'This item as a web page'),
      link(`${baseUrl}${OGC_PATHS.collection(collection)}`, 'collection', CONTENT_TYPE_JSON, 'Its collection'),
      ...manifestLinks(row, baseUrl, collection),
    ],
  };
}

/** A building with pictures, and a picture, are IIIF manifests too (issue 49): for IIIF viewers. */
function manifestLinks(row: ItemRow, baseUrl: string, collection: CatalogueCollection): Link[] {
  const pictured = collection === 'features' && typeof row.values.image_count === 'number' && row.values.image_count > 0;
  if (pictured) return [link(`${baseUrl}${IIIF_PATHS.placeManifest(row.id)}`, 'related', CONTENT_TYPE_IIIF_PRESENTATION, 'Its pictures as a IIIF manifest')];
  if (collection === 'images') return [link(`${baseUrl}${IIIF_PATHS.pictureManifest(row.id)}`, 'related', CONTENT_TYPE_IIIF_PRESENTATION, 'This picture as a IIIF manifest')];
  return [];
}

export interface PageLinks {
  /** The request's path and its query pairs as given. */
  readonly baseUrl: string;
  readonly path: string;
  readonly query: readonly (readonly [string, string])[];
  /** After/before values for the next and prev pages (cursor.ts). */
  readonly next: string | null;
  readonly prev: string | null;
}

/** A page of items as objects (what the HTML page reads). */
export function renderItems(page: ItemsPage, collection: CatalogueCollection, options: ItemOptions, links: PageLinks, timeStamp: string) {
  const features = page.rows.map((row) => renderItem(row, links.baseUrl, collection, options));
  return pageOf(page, collection, links, timeStamp, features, features.length);
}

/** A page of items with its features as one JSON text (itemText), as a JSON page writes them: the same bytes, once stringified. */
export function renderItemsText(page: ItemsPage, collection: CatalogueCollection, options: ItemOptions, links: PageLinks, timeStamp: string) {
  const baseUrlJson = JSON.stringify(links.baseUrl).slice(1, -1);
  const features = page.rows.map((row) => (row.text === undefined ? itemText(renderItem(row, links.baseUrl, collection, options)) : fromStoredText(row.text, baseUrlJson)));
  return pageOf(page, collection, links, timeStamp, new JsonText(`[${features.join(',')}]`), features.length);
}

function pageOf<F extends ItemBody[] | JsonText>(page: ItemsPage, collection: CatalogueCollection, links: PageLinks, timeStamp: string, features: F, returned: number) {
  const here = (replace: readonly (readonly [string, string])[], drop: readonly string[]) => {
    const pairs = [...links.query.filter(([name]) => !drop.includes(name)), ...replace];
    const query = new URLSearchParams(pairs.map(([n, v]): [string, string] => [n, v])).toString();
    return `${links.baseUrl}${links.path}${query === '' ? '' : `?${query}`}`;
  };
  const pageLinks: Link[] = [
    link(here([], []), 'self', CONTENT_TYPE_GEOJSON, 'This page'),
    link(here([['f', 'json']], ['f']), 'alternate', CONTENT_TYPE_JSON, 'This page as plain JSON'),
    link(here([['f', 'html']], ['f']), 'alternate', 'text/html', 'This page as a web page'),
  ];
  if (links.next !== null) pageLinks.push(link(here([['after', links.next]], ['after', 'before']), 'next', CONTENT_TYPE_GEOJSON, 'The next page'));
  if (links.prev !== null) pageLinks.push(link(here([['before', links.prev]], ['after', 'before']), 'prev', CONTENT_TYPE_GEOJSON, 'The previous page'));
  pageLinks.push(link(`${links.baseUrl}${OGC_PATHS.collection(collection)}`, 'collection', CONTENT_TYPE_JSON, 'The collection'));
  return {
    type: 'FeatureCollection' as const,
    numberMatched: page.numberMatched,
    numberReturned: returned,
    timeStamp,
    links: pageLinks,
    features,
  };
}
