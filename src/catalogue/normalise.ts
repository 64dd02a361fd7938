// A valid file → the `Catalogue` the rest of the service works with: fresh objects holding
// only the known keys, defaults filled in, geometry a MultiPolygon. Lists keep their order.
import { defaultSearchStr, type Catalogue, type Document, type Feature, type Image, type Media } from './format.js';
import { toMultiPolygon } from './geometry.js';
import type { CatalogueRecord, ListName } from './lists.js';
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

const RECORD_NORMALISERS: { [L in ListName]: (value: CatalogueFile[L][number]) => CatalogueRecord<L> } = {
  authors: ({ id, username }) => ({ id, username }),
  categories: ({ id, name, description, thumbnail }) => ({ id, name, description, thumbnail }),
  sites: ({ id, name }) => ({ id, name }),
  features: normaliseFeature,
  images: normaliseImage,
  documents: normaliseDocument,
  media: normaliseMedia,
};

/** One record that passed its checks → its normalised form. */
export function normaliseRecord<L extends ListName>(list: L, value: unknown): CatalogueRecord<L> {
  return (RECORD_NORMALISERS[list] as (value: unknown) => CatalogueRecord<L>)(value);
}
