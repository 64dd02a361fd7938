// A valid file → the `Catalogue` the rest of the service works with: fresh objects holding
// only the known keys, defaults filled in, geometry a MultiPolygon. Lists keep their order.
import { defaultSearchStr, type Catalogue, type Document, type Feature, type Image, type Media } from './format.js';
import { toMultiPolygon } from './geometry.js';
import type { CatalogueFile, FileFeature } from './schema.js';

type FileImage = CatalogueFile['images'][number];
type FileDocument = CatalogueFile['documents'][number];
type FileMedia = CatalogueFile['media'][number];

function normaliseFeature(f: FileFeature): Feature {
  return {
    id: f.id,
    feature_type: f.feature_type,
    b_number: f.b_number,
    b_name: f.b_name,
    street: f.street,
    postcode: f.postcode,
    address: f.address,
    current: f.current,
    site: f.site,
    categories: [...f.categories],
    tags: [...f.tags],
    search_str: f.search_str ?? defaultSearchStr(f),
    geometry: toMultiPolygon(f.geometry),
  };
}

function normaliseImage(i: FileImage): Image {
  const { id, feature, author, title, file, description, copyright, created } = i;
  return { id, feature, author, title, file, description, copyright, created, published: i.published ?? true };
}

function normaliseDocument(d: FileDocument): Document {
  const { id, feature, author, title, body, created, last_edited } = d;
  return { id, feature, author, title, body, created, last_edited, published: d.published ?? true };
}

function normaliseMedia(m: FileMedia): Media {
  const { id, feature, author, title, url } = m;
  return { id, feature, author, title, url, published: m.published ?? true };
}

/** Only for a file that passed every check: it trusts the shapes. */
export function normaliseCatalogue(file: CatalogueFile): Catalogue {
  return {
    format: file.format,
    authors: file.authors.map(({ id, username }) => ({ id, username })),
    categories: file.categories.map(({ id, name, description, thumbnail }) => ({ id, name, description, thumbnail })),
    sites: file.sites.map(({ id, name }) => ({ id, name })),
    features: file.features.map(normaliseFeature),
    images: file.images.map(normaliseImage),
    documents: file.documents.map(normaliseDocument),
    media: file.media.map(normaliseMedia),
  };
}
