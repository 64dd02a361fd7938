// The catalogue's tables in the order a store empties them. Records become rows in
// catalogue-rows.ts and rows become records again in export-rows.ts.

/** Children before parents, for stores that check references while deleting. */
export const CATALOGUE_TABLES_IN_DELETE_ORDER = [
  'features_search', 'images_search', 'documents_search', 'media_search', 'feature_category_names', 'feature_tags',
  'feature_categories', 'images', 'documents', 'media', 'features', 'categories', 'sites', 'authors',
] as const;
