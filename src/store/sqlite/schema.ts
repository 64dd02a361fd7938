// SQLite tables. Published records carry `position` (0-based, ascending id) so that any
// page is an index range scan, whatever its depth; unpublished ones have none.
// 5: a search table's rowid is the record's id (matches are read from the index alone); the
// type index holds the year, so a type and year filter is counted from it alone.
// 6: each feature's category names, joined as the OGC face shows them, in a trigram index.
// 7: what the OGC face shows of a feature from other rows (counts, first image, joined lists), and its GeoJSON text, kept on its row;
// its footprint as float64s (`outline`, search/box.ts) for the exact box test.
// 8: each stored tile's level of detail (tiles/budget.ts); each footprint's positions beside its box in the R*Tree.
// 9: tiles crowded from 500 footprints or 10,000 positions (tiles/crowded.ts): the crowded tiles made again.
// 10: the contributors' tables (account-schema.ts), kept through every import and upgrade.
// 11: contributions waiting for an editor and the history of changes made through the site (account-schema.ts).
// 12: accounts people manage and pictures kept in the store (issue 45): account-schema.ts CONTRIBUTOR_STEPS.
// 13: the streets' labels kept, a row a street (store/map/street-label-plans.ts).
export const SQLITE_SCHEMA_VERSION = '13';

/** How the search tables split and fold words (FTS5's unicode61; text is folded before it gets here). */
export const SEARCH_TOKENIZER = "tokenize = 'unicode61 remove_diacritics 2'";

export const SQLITE_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS authors (id INTEGER PRIMARY KEY, username TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS categories (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, thumbnail TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sites (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS features (
  id INTEGER PRIMARY KEY, position INTEGER NOT NULL UNIQUE, feature_type TEXT NOT NULL,
  b_number TEXT, b_name TEXT, street TEXT, postcode TEXT NOT NULL, address TEXT NOT NULL,
  current INTEGER, site_id INTEGER, tags TEXT NOT NULL, search_str TEXT NOT NULL,
  geometry TEXT NOT NULL, item_count INTEGER NOT NULL, street_key TEXT, postcode_key TEXT NOT NULL,
  image_count INTEGER NOT NULL DEFAULT 0, document_count INTEGER NOT NULL DEFAULT 0, media_count INTEGER NOT NULL DEFAULT 0,
  first_image TEXT, category_list TEXT NOT NULL DEFAULT '', tag_list TEXT NOT NULL DEFAULT '', item_text TEXT,
  outline BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS feature_categories (
  feature_id INTEGER NOT NULL, position INTEGER NOT NULL, category_id INTEGER NOT NULL,
  PRIMARY KEY (feature_id, position)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS images (
  id INTEGER PRIMARY KEY, position INTEGER UNIQUE, feature_id INTEGER NOT NULL, author_id INTEGER NOT NULL,
  title TEXT NOT NULL, file TEXT NOT NULL, description TEXT NOT NULL, copyright INTEGER NOT NULL,
  created TEXT, published INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY, position INTEGER UNIQUE, feature_id INTEGER NOT NULL, author_id INTEGER NOT NULL,
  title TEXT NOT NULL, body TEXT NOT NULL, created TEXT NOT NULL, last_edited TEXT NOT NULL,
  published INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS media (
  id INTEGER PRIMARY KEY, position INTEGER UNIQUE, feature_id INTEGER NOT NULL, author_id INTEGER NOT NULL,
  title TEXT NOT NULL, url TEXT NOT NULL, published INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS images_by_feature ON images (feature_id, id) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS documents_by_feature ON documents (feature_id, id) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS media_by_feature ON media (feature_id, id) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS images_by_author ON images (author_id, feature_id) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS documents_by_author ON documents (author_id, feature_id) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS media_by_author ON media (author_id, feature_id) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS images_by_created ON images (created) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS documents_by_created ON documents (created) WHERE position IS NOT NULL;
CREATE INDEX IF NOT EXISTS features_by_street ON features (street_key);
CREATE INDEX IF NOT EXISTS features_by_postcode ON features (postcode_key);
CREATE INDEX IF NOT EXISTS features_by_current ON features (current);
CREATE INDEX IF NOT EXISTS features_by_site ON features (site_id);
CREATE INDEX IF NOT EXISTS features_by_type ON features (feature_type, current);
CREATE INDEX IF NOT EXISTS feature_categories_by_category ON feature_categories (category_id, feature_id);
CREATE TABLE IF NOT EXISTS feature_tags (tag TEXT NOT NULL, feature_id INTEGER NOT NULL, PRIMARY KEY (tag, feature_id)) WITHOUT ROWID;
-- Text is folded (lower case, no accents) before it gets here; prefix indexes speed "synag*".
-- One letter too: without it "s"* merges the lists of every word in s (20 one-letter words:
-- 250 ms at 40,000 features, 20 ms with it; the index grows by a tenth).
CREATE VIRTUAL TABLE IF NOT EXISTS features_search USING fts5(text, ${SEARCH_TOKENIZER}, prefix = '1 2 3 4');
CREATE VIRTUAL TABLE IF NOT EXISTS images_search USING fts5(text, ${SEARCH_TOKENIZER}, prefix = '1 2 3 4');
CREATE VIRTUAL TABLE IF NOT EXISTS documents_search USING fts5(text, ${SEARCH_TOKENIZER}, prefix = '1 2 3 4');
CREATE VIRTUAL TABLE IF NOT EXISTS media_search USING fts5(text, ${SEARCH_TOKENIZER}, prefix = '1 2 3 4');
-- Each feature's category names joined by "; " (rowid: its id; '' without any): the OGC
-- face's \`categories\`. Trigrams, case-sensitive, so that CQL2's LIKE (written as GLOB, which
-- is case-sensitive) finds candidates by any 3 characters, a leading wildcard too.
CREATE VIRTUAL TABLE IF NOT EXISTS feature_category_names USING fts5(names, tokenize = 'trigram case_sensitive 1');
-- Footprints' bounding boxes; the exact polygon test runs on the few candidates. Beside each
-- box its footprint's positions, which tell a crowded tile (tiles/crowded.ts) from the index alone.
CREATE VIRTUAL TABLE IF NOT EXISTS features_rtree USING rtree(id, min_x, max_x, min_y, max_y, +positions);
-- Each street's labels (JSON) and its buildings' count, placed at import and again by an
-- apply near their buildings; the box of the buildings' centres tells which an apply reaches.
CREATE TABLE IF NOT EXISTS street_labels (street_key TEXT PRIMARY KEY, name TEXT NOT NULL, buildings INTEGER NOT NULL, labels TEXT NOT NULL,
  min_x REAL NOT NULL, min_y REAL NOT NULL, max_x REAL NOT NULL, max_y REAL NOT NULL) WITHOUT ROWID;
-- Vector tiles too crowded to make on request, made at import; mvt NULL: an empty tile;
-- level: the level of detail it is drawn at to keep its byte budget (0: full; tiles/budget.ts).
CREATE TABLE IF NOT EXISTS tiles (z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, mvt BLOB, level INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (z, x, y)) WITHOUT ROWID;
-- A stored tile drawn below full detail: its levels before its own, each over budget, kept so
-- that an apply edits them and knows whether one fits again (store/tiles/tile-plans.ts).
-- mvt NULL: only a bound of its fewest bytes is kept (least), itself over budget.
CREATE TABLE IF NOT EXISTS tile_levels (z INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, level INTEGER NOT NULL, mvt BLOB, least INTEGER, PRIMARY KEY (z, x, y, level)) WITHOUT ROWID;
`;
