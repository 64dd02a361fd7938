// What each field of a record is called for people: the editors' forms, the history's
// differences and a change file's preview all say a field by these words.
import type { EditList } from '../site/paths.js';

export const FIELD_LABELS: { readonly [L in EditList]: Readonly<Record<string, string>> } = {
  categories: { name: 'Name', description: 'Description', thumbnail: 'Thumbnail' },
  sites: { name: 'Name' },
  features: {
    feature_type: 'Kind', b_number: 'Number', b_name: 'Name', street: 'Street', postcode: 'Postcode', address: 'Address',
    current: 'Year', site: 'Site', categories: 'Categories', tags: 'Tags', search_str: 'Search text', geometry: 'Footprint',
  },
  images: {
    feature: 'Building', author: 'Credit', title: 'Title', file: 'File', description: 'Description', copyright: 'Licence',
    created: 'Date', published: 'Published',
  },
  documents: { feature: 'Building', author: 'Author', title: 'Title', body: 'Text', created: 'Written', last_edited: 'Last edited', published: 'Published' },
  media: { feature: 'Building', author: 'Credit', title: 'Title', url: 'Video address', published: 'Published' },
};

/** Each list's record, in words: "building", "picture", … */
export const RECORD_NOUNS: Readonly<Record<EditList, string>> = {
  features: 'building', images: 'picture', documents: 'writing', media: 'video link', categories: 'category', sites: 'site',
};
