// The words an editor reads for records, their fields and their values, in one place: the
// editors' forms, the history, the latest changes and a change file's preview (issue 47) say a
// record and a field the same way. A field's own name is declared with its input
// (record-form.ts, INPUTS) and read from there; keys are reached through the catalogue's one
// declaration of the fields (FEATURE_KEYS), so no field is spelled here twice.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { FeatureType } from '../catalogue/format.js';
import type { ListName } from '../catalogue/lists.js';
import type { EditList } from '../site/paths.js';
import { formFields } from './record-form.js';

/** Each list's record, in words: "building", "picture", … */
export const RECORD_NOUNS: Readonly<Record<EditList, string>> = {
  features: 'building', images: 'picture', documents: 'writing', media: 'video link', categories: 'category', sites: 'site',
};

const labelsOf = (list: EditList): Readonly<Record<string, string>> => Object.fromEntries(formFields(list).map((f) => [f.key, f.label]));

/** Every field of every list as an editor reads it: the forms' labels (record-form.ts), and an author's. */
export const FIELD_LABELS: { readonly [L in ListName]: Readonly<Record<string, string>> } = {
  authors: { username: 'Name' }, categories: labelsOf('categories'), sites: labelsOf('sites'), features: labelsOf('features'),
  images: labelsOf('images'), documents: labelsOf('documents'), media: labelsOf('media'),
};

/** A field's label (a field no form shows: its key). */
export const fieldLabel = (list: ListName, key: string): string => FIELD_LABELS[list][key] ?? key;

/** What one record of a list is called, and many. */
export const LIST_WORDS: { readonly [L in ListName]: { one: string; many: string } } = {
  authors: { one: 'author', many: 'authors' },
  categories: { one: RECORD_NOUNS.categories, many: 'categories' },
  sites: { one: RECORD_NOUNS.sites, many: 'sites' },
  features: { one: RECORD_NOUNS.features, many: 'buildings' },
  images: { one: RECORD_NOUNS.images, many: 'pictures' },
  documents: { one: RECORD_NOUNS.documents, many: 'writings' },
  media: { one: RECORD_NOUNS.media, many: 'video links' },
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
