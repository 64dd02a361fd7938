// The contributors' tables (issue 37): accounts, their sessions, the site's own secrets, the
// contributions waiting for an editor and the history of changes made through the site.
// They are not the catalogue: an import or apply never empties them (tables.ts lists the
// catalogue's), a SQLite schema upgrade keeps them (sqlite.ts), and export never reads them.
// Written once for both stores: SQLite's INTEGER and TEXT are PostgreSQL's bigint and text.

/** Every table here, for the upgrade that rebuilds the catalogue's tables around them. */
export const ACCOUNT_TABLES = ['accounts', 'sessions', 'site_secrets', 'contributions', 'record_changes', 'password_resets', 'contribution_pictures'] as const;

/**
 * username_key: the name folded (lower case, NFKC), unique, so that "Ann" and "ann" are one
 * account. A session is kept by the SHA-256 of its token: the database alone opens none.
 * Times are milliseconds since the epoch.
 */
export function accountSchema(integer: 'INTEGER' | 'bigint', autoId: string): string {
  return `
CREATE TABLE IF NOT EXISTS accounts (
  id ${autoId}, username TEXT NOT NULL, username_key TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
  role TEXT NOT NULL, disabled ${integer} NOT NULL DEFAULT 0, created ${integer} NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  token_hash TEXT PRIMARY KEY, account_id ${integer} NOT NULL REFERENCES accounts (id),
  created ${integer} NOT NULL, expires ${integer} NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account_id);
CREATE TABLE IF NOT EXISTS site_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
${contributionSchema(integer, autoId)}`;
}

/**
 * A contribution waits here, outside the catalogue, until an editor decides: nothing public
 * reads this table, so a pending one cannot leak. fields: the form's fields as written
 * (JSON), an editor's correction replacing them; record_id: the catalogue record it became.
 * record_changes: every change made through the site (approvals, reverts), each record's
 * before and after as catalogue JSON (null: it did not exist / no longer does).
 */
export function contributionSchema(integer: 'INTEGER' | 'bigint', autoId: string): string {
  return `
CREATE TABLE IF NOT EXISTS contributions (
  id ${autoId}, account_id ${integer} NOT NULL REFERENCES accounts (id), kind TEXT NOT NULL, feature_id ${integer} NOT NULL,
  state TEXT NOT NULL, fields TEXT NOT NULL, created ${integer} NOT NULL,
  decided ${integer}, decided_by ${integer} REFERENCES accounts (id), reason TEXT, record_id ${integer});
CREATE INDEX IF NOT EXISTS contributions_by_account ON contributions (account_id, id);
CREATE INDEX IF NOT EXISTS contributions_by_state ON contributions (state, id);
CREATE TABLE IF NOT EXISTS record_changes (
  id ${autoId}, list TEXT NOT NULL, record_id ${integer} NOT NULL, account_id ${integer} REFERENCES accounts (id),
  at ${integer} NOT NULL, what TEXT NOT NULL, before_json TEXT, after_json TEXT);
CREATE INDEX IF NOT EXISTS record_changes_by_record ON record_changes (list, record_id, id);
`;
}

export const SQLITE_ACCOUNT_SCHEMA = accountSchema('INTEGER', 'INTEGER PRIMARY KEY');

/**
 * What the contributors' tables gained after they were first made, in order: each step's
 * columns added where they are missing (so a new file and an old one end alike), then its
 * SQL (tables and indexes, IF NOT EXISTS). SQLite runs every step at each open for writing
 * (sqlite.ts); PostgreSQL runs each once, as a migration of its own (postgres-migrations.ts:
 * `postgresStep`). The schema texts above stay as they were: migrations 10 and 11 are them.
 */
export interface ContributorStep {
  columns: readonly { table: string; column: string; type: (integer: 'INTEGER' | 'bigint') => string }[];
  sql: (integer: 'INTEGER' | 'bigint') => string;
}

// Issue 45, accounts people manage. sessions.last_seen: when the session was last used (at most
// a minute late: accounts.ts), null for sessions made before it. password_resets: an account's
// one reset link (a newer one replaces it: the account is the key), kept by the SHA-256 of its
// token like a session; used: when it was used (null: not yet).
export const MANAGED_ACCOUNTS_STEP: ContributorStep = {
  columns: [{ table: 'sessions', column: 'last_seen', type: (integer) => integer }],
  sql: (integer) => `
CREATE TABLE IF NOT EXISTS password_resets (
  account_id ${integer} PRIMARY KEY REFERENCES accounts (id), token_hash TEXT NOT NULL UNIQUE,
  created ${integer} NOT NULL, expires ${integer} NOT NULL, used ${integer});
`,
};

/**
 * name_skeleton: what the name looks like (accounts/names.ts nameSkeleton), unique, so that
 * of two look-alike sign-ups at once one alone is made. It is written by the code, not SQL:
 * a row made before this step has none until the next account is made, which fills them
 * first in its own transaction (account-plans.ts), alike on both stores. author_id: the
 * catalogue author the account is credited as (linked by an operator, or made at its first
 * publication), one account an author; no foreign key, as an import replaces the authors.
 */
export const NAMES_STEP: ContributorStep = {
  columns: [
    { table: 'accounts', column: 'name_skeleton', type: () => 'TEXT' },
    { table: 'accounts', column: 'author_id', type: (integer) => integer },
  ],
  sql: () => `
CREATE UNIQUE INDEX IF NOT EXISTS accounts_by_skeleton ON accounts (name_skeleton);
CREATE UNIQUE INDEX IF NOT EXISTS accounts_by_author ON accounts (author_id);
`,
};

/** Issue 45: contributed pictures kept in the store (store/contributions/picture-plans.ts). */
export const PICTURES_STEP: ContributorStep = { columns: [], sql: pictureSchema };

/**
 * A contributed picture's re-encodings (issue 45), in the store so that they are written,
 * published and undone in the catalogue's own transactions, and served alike by every process
 * and replica: `size` is `full` (the archive: every pixel, no metadata), `display` or
 * `thumbnail`; `record_id` the image record that shows it once approved. A picture is public
 * exactly while that record is published and names it (picture-plans.ts), so no flag can
 * disagree with the catalogue. bytea rather than large objects: a row's bytes go and come
 * back with its transaction (a large object outlives a rolled-back or deleted row unless
 * unlinked), stream to replicas with the rest, and are at most a few MB.
 */
function pictureSchema(integer: 'INTEGER' | 'bigint'): string {
  const bytes = integer === 'INTEGER' ? 'BLOB' : 'bytea';
  return `
CREATE TABLE IF NOT EXISTS contribution_pictures (
  upload TEXT NOT NULL, size TEXT NOT NULL, bytes ${bytes} NOT NULL, etag TEXT NOT NULL, created ${integer} NOT NULL,
  contribution_id ${integer} REFERENCES contributions (id), record_id ${integer}, PRIMARY KEY (upload, size));
CREATE INDEX IF NOT EXISTS contribution_pictures_by_contribution ON contribution_pictures (contribution_id);`;
}

/**
 * Issue 47, editors in the browser. record_changes.change_version: the catalogue version the
 * change made; every record one save (an edit, an approval, a change file, an undo) changed
 * shares it, so a change is undone, listed and shown as one. Null for rows kept before.
 */
export const EDITS_STEP: ContributorStep = {
  columns: [{ table: 'record_changes', column: 'change_version', type: (integer) => integer }],
  sql: () => `
CREATE INDEX IF NOT EXISTS record_changes_by_version ON record_changes (change_version);
`,
};

/** In the order they were added: each step may use the tables of those before it. */
export const CONTRIBUTOR_STEPS: readonly ContributorStep[] = [MANAGED_ACCOUNTS_STEP, NAMES_STEP, PICTURES_STEP, EDITS_STEP];

/** A step as PostgreSQL's migration SQL. */
export function postgresStep(step: ContributorStep): string {
  const columns = step.columns.map((c) => `ALTER TABLE ${c.table} ADD COLUMN IF NOT EXISTS ${c.column} ${c.type('bigint')};`);
  return [...columns, step.sql('bigint')].join('\n');
}

export const POSTGRES_ACCOUNT_SCHEMA = accountSchema('bigint', 'bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY');
export const POSTGRES_CONTRIBUTION_SCHEMA = contributionSchema('bigint', 'bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY');
