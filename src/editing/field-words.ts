// What each list's record is called for people: the editors' forms, the history and a change
// file's preview say a record so. (A field's own name is declared with its input: record-form.ts.)
import type { EditList } from '../site/paths.js';

/** Each list's record, in words: "building", "picture", … */
export const RECORD_NOUNS: Readonly<Record<EditList, string>> = {
  features: 'building', images: 'picture', documents: 'writing', media: 'video link', categories: 'category', sites: 'site',
};
