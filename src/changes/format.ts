// The change file format `heritage-changes/1`: a few records to add, replace or remove,
// per list of the catalogue, in the records' own catalogue shapes (catalogue/schema.ts).
// `apply` reads it, `diff` writes it. Every list is optional, and so are its two parts.
// Semantics: within a list, `put` adds a record or replaces the stored one with the same
// id whole; `remove` names ids to delete (an id already absent is no change, so a second
// apply of the same file is a no-op). An id may not be both put and removed in one list.
// References (an image's feature, a feature's site and categories, …) are checked against
// the catalogue as it would be after the whole file, never half of it.
import type { CatalogueFile } from '../catalogue/schema.js';
import type { CatalogueRecord, ListName } from '../catalogue/lists.js';

export const CHANGES_FORMAT = 'heritage-changes/1';

/** What changes in one list. */
export interface ListChanges<L extends ListName = ListName> {
  put?: CatalogueFile[L][number][];
  remove?: number[];
}

export type ChangeFile = { format: typeof CHANGES_FORMAT } & { [L in ListName]?: ListChanges<L> };

/** A checked change file: every list, records normalised as import stores them (validate.ts). */
export type ChangeSet = { [L in ListName]: { put: CatalogueRecord<L>[]; remove: number[] } };

export function emptyChangeSet(): ChangeSet {
  return {
    authors: { put: [], remove: [] }, categories: { put: [], remove: [] }, sites: { put: [], remove: [] }, features: { put: [], remove: [] },
    images: { put: [], remove: [] }, documents: { put: [], remove: [] }, media: { put: [], remove: [] },
  };
}

/** A record of `list` to put. */
export function putRecord<L extends ListName>(changes: ChangeSet, list: L, record: CatalogueRecord<L>): void {
  changes[list].put.push(record);
}
