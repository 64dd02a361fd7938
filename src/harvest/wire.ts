// The answers of an API of this spec as the harvester reads them (api-spec.md). Only the
// skeleton a rebuild walks through is checked here, so that a server answering something
// else stops the harvest with a sentence instead of a TypeError; the leaf values are left
// to the catalogue validator, which names every bad one.
import type { Static } from '@sinclair/typebox';
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import { COLLECTIONS, type Collection } from '../constants.js';
import type {
  AttachmentSummarySchema, AuthorSchema, CategorySchema, DocumentSchema, ImageSchema, ListedFeatureSchema, MediaSchema, SearchableFeatureSchema,
} from '../render/schemas.js';
import { HarvestError } from './errors.js';

// The shapes are render/schemas.ts's, loosened only where another server of the spec may differ.
type Summary = Static<typeof AttachmentSummarySchema>;
type Listed = Static<typeof ListedFeatureSchema>;
type Searchable = Static<typeof SearchableFeatureSchema>;
type SummaryLists = 'documents' | 'images' | 'media';

export type WireAuthor = Static<typeof AuthorSchema>;

/** The spec leaves the shape of media summaries open: only an id is required of any. */
export type WireSummary = Pick<Summary, 'id'> & Partial<Summary>;

export type WireCategory = Static<typeof CategorySchema>;

export type WireListedFeature = Omit<Listed, 'properties'> & {
  properties: Omit<Listed['properties'], SummaryLists> & Record<SummaryLists, WireSummary[]>;
};

/** Nested in images and documents (with search_str and tags) or in media (with neither). */
export type WireNestedFeature = Omit<Searchable, 'properties' | 'tags'> & {
  properties: Omit<Searchable['properties'], typeof F.searchText> & Partial<Pick<Searchable['properties'], typeof F.searchText>>;
  tags?: Searchable['tags'];
};

type WithNestedFeature<R> = Omit<R, 'feature'> & { feature: WireNestedFeature };
export type WireImage = WithNestedFeature<Static<typeof ImageSchema>>;
export type WireDocument = WithNestedFeature<Static<typeof DocumentSchema>>;
export type WireMedia = WithNestedFeature<Static<typeof MediaSchema>>;

export interface WireRecords {
  features: WireListedFeature;
  images: WireImage;
  documents: WireDocument;
  media: WireMedia;
}

/** One page of a collection as the harvester keeps it. */
export interface WirePage {
  count: number;
  hasNext: boolean;
  nextUrl: string | null;
  records: unknown[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function refuse(url: string, what: string): never {
  throw new HarvestError(`${url} is not an answer of this API: ${what}.`);
}

/** The list envelope: count, next, and the page's records (features unwrapped from their FeatureCollection). */
export function readPage(url: string, body: unknown, collection: Collection): WirePage {
  if (!isObject(body)) refuse(url, 'not a JSON object');
  const { count, next } = body;
  if (!isCount(count)) refuse(url, '"count" is not a whole number');
  if (next !== null && typeof next !== 'string') refuse(url, '"next" is neither a URL nor null');
  const results = collection === 'features' && isObject(body.results) ? body.results.features : body.results;
  if (!Array.isArray(results)) refuse(url, `no list of ${collection} in "results"`);
  results.forEach((record, i) => checkRecord(url, collection, record, i));
  return { count, hasNext: next !== null, nextUrl: next, records: results };
}

function checkRecord(url: string, collection: Collection, record: unknown, i: number): void {
  const where = `${collection} record ${i + 1}`;
  if (!isObject(record) || !isId(record.id)) refuse(url, `${where} has no positive integer "id"`);
  if (collection === 'features') return checkListedFeature(url, where, record);
  if (!isAuthor(record.author)) refuse(url, `${where} has no author {id, username}`);
  if (!isObject(record.feature) || !isId(record.feature.id) || !isObject(record.feature.properties)) refuse(url, `${where} has no nested feature`);
}

function checkListedFeature(url: string, where: string, record: Record<string, unknown>): void {
  const p = record.properties;
  if (!isObject(p)) refuse(url, `${where} has no "properties"`);
  if (!Array.isArray(p.categories) || !p.categories.every((c) => isObject(c) && isId(c.id))) refuse(url, `${where} has no list of categories`);
  if (p.site !== null && !(isObject(p.site) && isId(p.site.id))) refuse(url, `${where} has a "site" that is neither {id, name} nor null`);
  for (const list of ['documents', 'images', 'media']) {
    const summaries = p[list];
    // The spec leaves the shape of media summaries open: only an id is required of any.
    if (!Array.isArray(summaries) || !summaries.every((s) => isObject(s) && isId(s.id) && (s.author === undefined || isAuthor(s.author)))) {
      refuse(url, `${where} has no list of ${list} summaries`);
    }
  }
}

function isAuthor(v: unknown): v is WireAuthor {
  return isObject(v) && isId(v.id);
}

/** The API root's links to the four collections. */
export function readRoot(url: string, body: unknown): Record<Collection, string> {
  const link = (n: Collection): string => {
    const href = isObject(body) ? body[n] : undefined;
    if (typeof href !== 'string') refuse(url, 'an API root lists links to features, images, documents and media');
    return href;
  };
  return { features: link('features'), images: link('images'), documents: link('documents'), media: link('media') };
}
