// The catalogue's collections: its records that each face serves one by one (a building or
// place, and what is attached to it), in the order every face lists them, and how a list of
// names (a feature's categories, its tags) is joined in one value. Every face's view (OGC's
// properties, the site's paths, the store's rows) takes its collections from here.

export const CATALOGUE_COLLECTIONS = ['features', 'images', 'documents', 'media'] as const;
export type CatalogueCollection = (typeof CATALOGUE_COLLECTIONS)[number];

export function isCatalogueCollection(name: string): name is CatalogueCollection {
  return CATALOGUE_COLLECTIONS.some((collection) => collection === name);
}

/** Between the items of a list value (category names or ids, tags) in one text. */
export const LIST_SEPARATOR = '; ';
