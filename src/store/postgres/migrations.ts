// Versioned PostgreSQL migrations, applied in order by `heritage-api migrate` and by
// `import`. Each runs once, in a transaction, recorded in `schema_migrations`. Never edit a
// migration that has shipped: add the next one.
//
// Tables live in the configured schema (search_path is set per connection); PostGIS
// itself lives wherever it was installed, normally `public`.

import { EDITS_STEP, MANAGED_ACCOUNTS_STEP, NAMES_STEP, PICTURES_STEP, POSTGRES_ACCOUNT_SCHEMA, POSTGRES_CONTRIBUTION_SCHEMA, postgresStep } from '../accounts/account-schema.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Written in JavaScript after the SQL, in the same transaction: each feature's stored text (store/apply/item-texts.ts). */
  itemTexts?: true;
  /** The crowded tiles made again after the SQL, in the same transaction (store/apply/tile-precompute.ts). */
  tiles?: true;
  /** Every street's labels placed after the SQL, in the same transaction (store/map/street-label-plans.ts). */
  streetLabels?: true;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'catalogue tables, positions for paging, PostGIS footprints',
    sql: `
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE authors (id integer PRIMARY KEY, username text NOT NULL);
CREATE TABLE categories (id integer PRIMARY KEY, name text NOT NULL, description text NOT NULL, thumbnail text NOT NULL);
CREATE TABLE sites (id integer PRIMARY KEY, name text NOT NULL);
-- geometry: the footprint exactly as imported (served as is); geom: the same footprint as
-- PostGIS geometry for spatial queries (PostGIS output would round the coordinates).
CREATE TABLE features (
  id integer PRIMARY KEY, position integer NOT NULL UNIQUE, feature_type text NOT NULL,
  b_number text, b_name text, street text, postcode text NOT NULL, address text NOT NULL,
  current integer, site_id integer, tags text NOT NULL, search_str text NOT NULL,
  geometry text NOT NULL, item_count integer NOT NULL,
  geom geometry(MultiPolygon, 4326) NOT NULL);
CREATE INDEX features_geom ON features USING gist (geom);
CREATE TABLE feature_categories (
  feature_id integer NOT NULL, position integer NOT NULL, category_id integer NOT NULL,
  PRIMARY KEY (feature_id, position));
CREATE TABLE images (
  id integer PRIMARY KEY, position integer UNIQUE, feature_id integer NOT NULL, author_id integer NOT NULL,
  title text NOT NULL, file text NOT NULL, description text NOT NULL, copyright boolean NOT NULL,
  created text, published boolean NOT NULL);
CREATE TABLE documents (
  id integer PRIMARY KEY, position integer UNIQUE, feature_id integer NOT NULL, author_id integer NOT NULL,
  title text NOT NULL, body text NOT NULL, created text NOT NULL, last_edited text NOT NULL,
  published boolean NOT NULL);
CREATE TABLE media (
  id integer PRIMARY KEY, position integer UNIQUE, feature_id integer NOT NULL, author_id integer NOT NULL,
  title text NOT NULL, url text NOT NULL, published boolean NOT NULL);
CREATE INDEX images_by_feature ON images (feature_id, id) WHERE position IS NOT NULL;
CREATE INDEX documents_by_feature ON documents (feature_id, id) WHERE position IS NOT NULL;
CREATE INDEX media_by_feature ON media (feature_id, id) WHERE position IS NOT NULL;
INSERT INTO meta (key, value) VALUES ('catalogue_version', '0');
`,
  },
  {
    version: 2,
    name: 'finding things: full-text search, tags, folded street and postcode, filter indexes',
    sql: `
ALTER TABLE features ADD COLUMN street_key text, ADD COLUMN postcode_key text NOT NULL DEFAULT '';
CREATE INDEX features_by_street ON features (street_key);
CREATE INDEX features_by_postcode ON features (postcode_key);
CREATE INDEX features_by_current ON features (current);
CREATE INDEX features_by_site ON features (site_id);
CREATE INDEX features_by_type ON features (feature_type);
CREATE INDEX feature_categories_by_category ON feature_categories (category_id, feature_id);
CREATE INDEX images_by_author ON images (author_id, feature_id) WHERE position IS NOT NULL;
CREATE INDEX documents_by_author ON documents (author_id, feature_id) WHERE position IS NOT NULL;
CREATE INDEX media_by_author ON media (author_id, feature_id) WHERE position IS NOT NULL;
CREATE INDEX images_by_created ON images (created) WHERE position IS NOT NULL;
CREATE INDEX documents_by_created ON documents (created) WHERE position IS NOT NULL;
CREATE TABLE feature_tags (tag text NOT NULL, feature_id integer NOT NULL, PRIMARY KEY (tag, feature_id));
-- document: to_tsvector('simple', unaccent(text)) of the folded search text, computed at import.
CREATE TABLE features_search (id integer PRIMARY KEY, document tsvector NOT NULL);
CREATE TABLE images_search (id integer PRIMARY KEY, document tsvector NOT NULL);
CREATE TABLE documents_search (id integer PRIMARY KEY, document tsvector NOT NULL);
CREATE TABLE media_search (id integer PRIMARY KEY, document tsvector NOT NULL);
CREATE INDEX features_search_gin ON features_search USING gin (document);
CREATE INDEX images_search_gin ON images_search USING gin (document);
CREATE INDEX documents_search_gin ON documents_search USING gin (document);
CREATE INDEX media_search_gin ON media_search USING gin (document);
`,
  },
  {
    version: 3,
    name: 'vector tiles too crowded to make on request, made at import',
    sql: `
-- mvt NULL: an empty tile.
CREATE TABLE tiles (z integer NOT NULL, x integer NOT NULL, y integer NOT NULL, mvt bytea, PRIMARY KEY (z, x, y));
`,
  },
  {
    version: 4,
    name: 'text queries: the folded tsquery computed once, when the query is planned',
    sql: `
-- unaccent is STABLE, so to_tsquery('simple', unaccent($1)) in a WHERE clause was computed
-- again for every row a sequential scan read (2 s for a long query over 4,000 rows), and
-- the planner could not see the query it estimates for. Declared IMMUTABLE (unaccent's
-- rules change only when an administrator edits them, and documents are rebuilt at every
-- import), the planner computes it once, from the parameter's value, before planning.
CREATE FUNCTION text_query(words text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT to_tsquery('simple', unaccent(words)) $$;
`,
  },
  {
    version: 5,
    name: 'filtered pages: the year and type indexes hold the id',
    sql: `
-- A filtered page's ids are chosen in id order before its rows are read (sql.ts
-- selectMatching): with the id in the index, a year or type filter is counted and paged
-- from the index alone (an index-only scan, the import vacuums), where reading every
-- matching row took 0.9 s at scale 100.
DROP INDEX features_by_current;
DROP INDEX features_by_type;
CREATE INDEX features_by_current ON features (current, id);
CREATE INDEX features_by_type ON features (feature_type, current, id);
`,
  },
  {
    version: 6,
    name: 'category names of each feature, joined, in a trigram index',
    sql: `
-- The OGC face's \`categories\` (names joined by "; ", '' without any), kept per feature at
-- import so that CQL2's LIKE on it is answered from a pg_trgm index, a leading wildcard too,
-- not by joining every feature's categories again. Filled here for a catalogue imported before.
CREATE TABLE feature_category_names (id integer PRIMARY KEY, names text NOT NULL);
INSERT INTO feature_category_names (id, names)
  SELECT f.id, coalesce((SELECT string_agg(c.name, '; ' ORDER BY fc.position)
    FROM feature_categories fc JOIN categories c ON c.id = fc.category_id WHERE fc.feature_id = f.id), '')
  FROM features f;
CREATE INDEX feature_category_names_trigrams ON feature_category_names USING gin (names gin_trgm_ops);
`,
  },
  {
    version: 7,
    name: 'what the OGC face shows of a feature from other rows, and its GeoJSON text, kept on its row',
    itemTexts: true,
    sql: `
-- Counts of published images, documents and media, the first image's file, and the category
-- ids and tags joined by "; ": seven subqueries for every row of every OGC page (a bbox page's
-- query was 2.5 ms of PostgreSQL's time, 1.5 of them these), kept per feature at import and
-- apply (catalogue-finish.ts). Filled here for a catalogue imported before.
ALTER TABLE features
  ADD COLUMN image_count integer NOT NULL DEFAULT 0, ADD COLUMN document_count integer NOT NULL DEFAULT 0,
  ADD COLUMN media_count integer NOT NULL DEFAULT 0, ADD COLUMN first_image text,
  ADD COLUMN category_list text NOT NULL DEFAULT '', ADD COLUMN tag_list text NOT NULL DEFAULT '',
  ADD COLUMN item_text text;
UPDATE features SET
  image_count = (SELECT count(*) FROM images r WHERE r.feature_id = features.id AND r.position IS NOT NULL),
  document_count = (SELECT count(*) FROM documents r WHERE r.feature_id = features.id AND r.position IS NOT NULL),
  media_count = (SELECT count(*) FROM media r WHERE r.feature_id = features.id AND r.position IS NOT NULL),
  first_image = (SELECT i.file FROM images i WHERE i.feature_id = features.id AND i.position IS NOT NULL ORDER BY i.id LIMIT 1),
  category_list = coalesce((SELECT string_agg(CAST(fc.category_id AS text), '; ' ORDER BY fc.position)
    FROM feature_categories fc WHERE fc.feature_id = features.id), ''),
  tag_list = coalesce((SELECT string_agg(t.value, '; ' ORDER BY t.n)
    FROM json_array_elements_text(CAST(features.tags AS json)) WITH ORDINALITY AS t(value, n)), '');
`,
  },
  {
    version: 8,
    name: 'vector tiles kept within a byte budget: the level of detail each stored tile is drawn at',
    tiles: true,
    sql: `
-- 0: full detail (polygons from 2 pixels across); higher levels draw fewer polygons and more
-- points, to keep a tile within its budget (tiles/budget.ts). A tile stored before was drawn
-- at full detail whatever its size: every crowded tile is made again after this.
ALTER TABLE tiles ADD COLUMN level integer NOT NULL DEFAULT 0;
-- A tile drawn below full detail keeps its levels before its own, each over budget, so that
-- an apply edits them and knows whether one fits again (store/tiles/tile-plans.ts).
-- mvt NULL: only a bound of its fewest bytes is kept (least), itself over budget.
CREATE TABLE tile_levels (z integer NOT NULL, x integer NOT NULL, y integer NOT NULL, level integer NOT NULL, mvt bytea, least integer, PRIMARY KEY (z, x, y, level));
`,
  },
  {
    version: 9,
    name: 'tiles crowded from 500 footprints or 10,000 positions (was 1,000 and 20,000): made at import, so that none made on request costs more',
    tiles: true,
    // Nothing changes in the tables: every crowded tile is made again by the new limits (tiles/crowded.ts).
    sql: 'SELECT 1;',
  },
  {
    version: 10,
    name: 'the contributors\' tables: accounts, sessions, the site\'s secrets (store/accounts/account-schema.ts), outside the catalogue',
    sql: POSTGRES_ACCOUNT_SCHEMA,
  },
  {
    version: 11,
    name: 'contributions waiting for an editor, and the history of changes made through the site (store/accounts/account-schema.ts), outside the catalogue',
    sql: POSTGRES_CONTRIBUTION_SCHEMA,
  },
  {
    version: 12,
    name: 'positions unique when a statement ends, not at each row: an apply shifts them in one pass (it moved each row twice: 340 of its 600 ms for one document removed of 10,600)',
    sql: ['features', 'images', 'documents', 'media'].map((list) => `ALTER TABLE ${list} DROP CONSTRAINT ${list}_position_key,
  ADD CONSTRAINT ${list}_position_key UNIQUE (position) DEFERRABLE INITIALLY IMMEDIATE;`).join('\n'),
  },
  {
    version: 13,
    name: 'accounts people manage: when each session was last seen, and password reset links (store/accounts/account-schema.ts MANAGED_ACCOUNTS_STEP)',
    sql: postgresStep(MANAGED_ACCOUNTS_STEP),
  },
  {
    version: 14,
    name: 'account names unique by their look (a TR39 skeleton) and accounts linked to the catalogue author they are credited as (store/accounts/account-schema.ts)',
    sql: postgresStep(NAMES_STEP),
  },
  {
    version: 15,
    name: 'contributed pictures kept in the store, public while their record is published (store/accounts/account-schema.ts)',
    sql: postgresStep(PICTURES_STEP),
  },
  {
    version: 16,
    name: 'each change made through the site kept with the catalogue version it made, so that a change of many records is undone as one (store/accounts/account-schema.ts EDITS_STEP)',
    sql: postgresStep(EDITS_STEP),
  },
  {
    version: 17,
    name: 'the streets\' labels kept, a row a street, placed at import and again by an apply near their buildings (store/map/street-label-plans.ts): /map/streets.json read every building (1.4 s at scale 100)',
    sql: `CREATE TABLE IF NOT EXISTS street_labels (street_key text PRIMARY KEY, name text NOT NULL, buildings integer NOT NULL, labels text NOT NULL,
  min_x double precision NOT NULL, min_y double precision NOT NULL, max_x double precision NOT NULL, max_y double precision NOT NULL);`,
    streetLabels: true,
  },
];

export const LATEST_MIGRATION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
