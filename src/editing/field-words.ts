// The words an editor reads for a record's fields and their values, in one place: the history,
// the latest changes, a change file's preview and the editors' forms (issue 47) all label a
// field the same way. Keys are reached through the catalogue's one declaration of the fields
// (FEATURE_KEYS, DOCUMENT_KEYS), so no field is spelled here twice.
import { DOCUMENT_KEYS, FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { FeatureType } from '../catalogue/format.js';
import type { ListName } from '../catalogue/lists.js';

/** Every field of every list as an editor reads it. */
export const FIELD_LABELS: { readonly [L in ListName]: Readonly<Record<string, string>> } = {
  authors: { id: 'Number in the catalogue', username: 'Name' },
  categories: { id: 'Number in the catalogue', name: 'Name', description: 'Description', thumbnail: 'Picture' },
  sites: { id: 'Number in the catalogue', name: 'Name' },
  features: {
    id: 'Number in the catalogue', [F.type]: 'Kind', [F.number]: 'Number', [F.name]: 'Name', [F.street]: 'Street', [F.postalCode]: 'Postcode',
    [F.address]: 'Address', [F.year]: 'Year', site: 'Site', categories: 'Categories', tags: 'Tags', [F.searchText]: 'Also found by', geometry: 'Footprint',
  },
  images: {
    id: 'Number in the catalogue', feature: 'Building', author: 'Credit', title: 'Title', file: 'File', description: 'Description',
    copyright: 'Licence', created: 'Date', published: 'Published',
  },
  documents: {
    id: 'Number in the catalogue', feature: 'Building', author: 'Author', title: 'Title', body: 'Text', created: 'Date',
    [DOCUMENT_KEYS.lastEdited]: 'Last edited', published: 'Published',
  },
  media: { id: 'Number in the catalogue', feature: 'Building', author: 'Author', title: 'Title', url: 'Video address', published: 'Published' },
};

/** A field's label (a field not declared above: its key). */
export const fieldLabel = (list: ListName, key: string): string => FIELD_LABELS[list][key] ?? key;

/** What one record of a list is called, and many. */
export const LIST_WORDS: { readonly [L in ListName]: { one: string; many: string } } = {
  authors: { one: 'author', many: 'authors' },
  categories: { one: 'category', many: 'categories' },
  sites: { one: 'site', many: 'sites' },
  features: { one: 'building', many: 'buildings' },
  images: { one: 'picture', many: 'pictures' },
  documents: { one: 'writing', many: 'writings' },
  media: { one: 'video link', many: 'video links' },
};

/** A feature's kind as an editor reads it. */
export const KIND_WORDS: Readonly<Record<FeatureType, string>> = {
  WHITECHAPEL_BUILDING: 'building in Whitechapel',
  GREATER_WHITECHAPEL: 'area of Greater Whitechapel',
  PLACE: 'place',
  OPEN_SPACE: 'open space',
};

/** An image's `copyright` in words: true, the contributor keeps it. */
export const licenceWords = (copyright: boolean): string => (copyright ? 'the contributor keeps the copyright' : 'open licence');

export const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/** What an empty or missing value reads as. */
export const NONE = '(none)';

/**
 * The fields shown as a short note of how they changed rather than whole: a footprint's
 * positions mean nothing read aloud, long text is shortened around what changed.
 */
export const LONG_TEXT_FIELDS: { readonly [L in ListName]?: readonly string[] } = {
  categories: ['description'],
  images: ['description'],
  documents: ['body'],
};

/** The fields kept as HTML (a document's body): read as their text. */
export const HTML_FIELDS: { readonly [L in ListName]?: readonly string[] } = { documents: ['body'] };

/** Fields never listed as a change: the record's own number (it cannot change). */
export const UNLISTED_FIELDS: readonly string[] = ['id'];

/** The references of each list: which list the field's number names. */
export const REFERENCE_FIELDS: { readonly [L in ListName]?: Readonly<Record<string, 'authors' | 'features' | 'sites' | 'categories'>> } = {
  features: { site: 'sites', categories: 'categories' },
  images: { feature: 'features', author: 'authors' },
  documents: { feature: 'features', author: 'authors' },
  media: { feature: 'features', author: 'authors' },
};

/** The field that names a record of each list (a building: its name, else its address). */
export const LABEL_FIELDS: { readonly [L in ListName]: readonly string[] } = {
  authors: ['username'], categories: ['name'], sites: ['name'], features: [F.name, F.address], images: ['title'], documents: ['title'], media: ['title'],
};
