// The contributors' reads and writes (account-schema.ts) as plans, written once for both
// stores and run in one read-write transaction each (CatalogueStore.transact).
import { ROLES, type Role } from '../accounts/roles.js';
import type { Plan } from './read-plans.js';
import { firstRow, num, numOrNull, oneOf, readRows, text, type Cells } from './rows.js';

export interface AccountRow {
  id: number;
  username: string;
  role: Role;
  disabled: boolean;
  created: number;
}

/** With the hash, for sign-in alone. */
export interface AccountCredentials extends AccountRow {
  passwordHash: string;
}

const COLUMNS = 'a.id, a.username, a.role, a.disabled, a.created';

const roleOf = oneOf(ROLES);

function toAccount(r: Cells): AccountRow {
  return { id: num(r.id), username: text(r.username), role: roleOf(r.role), disabled: Number(r.disabled) === 1 || r.disabled === true, created: num(r.created) };
}

const idOf = (r: Cells) => num(r.id);

export interface NewAccount {
  username: string;
  /** nameKey: one account a key. */
  key: string;
  /** nameLooks: its own skeleton first (the unique column), then any other it reads as. */
  looks: readonly string[];
  passwordHash: string;
  role: Role;
  now: number;
  /** Linked to the catalogue author of exactly this name (an operator's `users add --author`). */
  author: boolean;
}

/** Why a name is not given: taken (its key), looks like a taken one, a catalogue author's, or (linking) no such author / one linked already. */
export type NameRefusal = 'taken' | 'looksLike' | 'author' | 'noAuthor' | 'authorLinked';

/**
 * The new account's row, or why not. The unique key and skeleton decide a race (ON CONFLICT:
 * of two look-alikes at once, one is made); the reads before it only name the reason.
 * `skeletonOf` (accounts/names.ts) is the code's: SQL cannot compute it.
 */
export function* createAccountPlan(account: NewAccount, skeletonOf: (name: string) => string): Plan<{ account: AccountRow } | { refused: NameRefusal }> {
  yield* fillSkeletonsPlan(skeletonOf);
  const author = yield* authorOfNewPlan(account, skeletonOf);
  if (typeof author === 'string') return { refused: author };
  const [own = account.key, other = own] = account.looks;
  const clashes = readRows(yield {
    sql: 'SELECT username_key FROM accounts WHERE username_key = $1 OR name_skeleton = $2 OR name_skeleton = $3 OR author_id = $4',
    params: [account.key, own, other, author],
  }, (r) => text(r.username_key));
  if (clashes.length > 0) return { refused: clashes.some((key) => key === account.key) ? 'taken' : author === null ? 'looksLike' : 'authorLinked' };
  const made = firstRow(yield {
    sql: `INSERT INTO accounts (username, username_key, name_skeleton, author_id, password_hash, role, disabled, created) VALUES ($1, $2, $3, $4, $5, $6, 0, $7)
      ON CONFLICT DO NOTHING RETURNING id, username, role, disabled, created`,
    params: [account.username, account.key, own, author, account.passwordHash, account.role, account.now],
  }, toAccount);
  return made === null ? { refused: 'taken' } : { account: made };
}

/**
 * The author a new account is linked to (null: none), or why the name cannot be had: every
 * catalogue author's name, and its look-alikes, is kept for the account linked to it.
 */
function* authorOfNewPlan(account: NewAccount, skeletonOf: (name: string) => string): Plan<number | null | NameRefusal> {
  if (account.author) {
    return firstRow(yield { sql: 'SELECT id FROM authors WHERE username = $1 ORDER BY id LIMIT 1', params: [account.username] }, idOf) ?? 'noAuthor';
  }
  const authors = readRows(yield { sql: 'SELECT username FROM authors', params: [] }, (r) => text(r.username));
  return authors.some((name) => account.looks.includes(skeletonOf(name))) ? 'author' : null;
}

/**
 * Skeletons for the accounts made before names had one (or by an older process meanwhile), in
 * the order they were made: of two look-alikes made then, the later keeps its name but not the
 * look (its skeleton marked with its id), so that neither is lost and no new one imitates them.
 */
function* fillSkeletonsPlan(skeletonOf: (name: string) => string): Plan<void> {
  const missing = readRows(yield { sql: 'SELECT id, username FROM accounts WHERE name_skeleton IS NULL ORDER BY id', params: [] }, (r) => ({ id: num(r.id), username: text(r.username) }));
  for (const row of missing) {
    const look = skeletonOf(row.username);
    const taken = (yield { sql: 'SELECT id FROM accounts WHERE name_skeleton = $1', params: [look] }).length > 0;
    yield { sql: 'UPDATE accounts SET name_skeleton = $1 WHERE id = $2', params: [taken ? `${look}#${row.id}` : look, row.id] };
  }
}

export function* credentialsPlan(key: string): Plan<AccountCredentials | null> {
  return firstRow(yield { sql: `SELECT ${COLUMNS}, a.password_hash FROM accounts a WHERE a.username_key = $1`, params: [key] }, (r) => ({ ...toAccount(r), passwordHash: text(r.password_hash) }));
}

export function* accountsPlan(): Plan<AccountRow[]> {
  return readRows(yield { sql: `SELECT ${COLUMNS} FROM accounts a ORDER BY a.username_key`, params: [] }, toAccount);
}

/** Whether the account exists; its role changed. */
export function* setRolePlan(key: string, role: Role): Plan<boolean> {
  return (yield { sql: 'UPDATE accounts SET role = $1 WHERE username_key = $2 RETURNING id', params: [role, key] }).length === 1;
}

/** Whether the account exists; disabled, every session of it ended in the same transaction. */
export function* disablePlan(key: string): Plan<boolean> {
  const id = firstRow(yield { sql: 'UPDATE accounts SET disabled = 1 WHERE username_key = $1 RETURNING id', params: [key] }, idOf);
  if (id === null) return false;
  yield* endSessionsPlan(id);
  return true;
}

/** Every session of the account ended: it is signed in nowhere. */
function* endSessionsPlan(accountId: number): Plan<void> {
  yield { sql: 'DELETE FROM sessions WHERE account_id = $1', params: [accountId] };
}

export function* createSessionPlan(session: { tokenHash: string; accountId: number; now: number; expires: number }): Plan<void> {
  // Expired sessions go as new ones come: the table holds the live ones and a few more.
  yield { sql: 'DELETE FROM sessions WHERE expires <= $1', params: [session.now] };
  yield { sql: 'INSERT INTO sessions (token_hash, account_id, created, expires) VALUES ($1, $2, $3, $4)', params: [session.tokenHash, session.accountId, session.now, session.expires] };
}

/** A live session: its account, and when it was last seen (null: not since it was made). */
export interface LiveSession {
  account: AccountRow;
  lastSeen: number | null;
}

/** The account a live session is of; none once it has expired or its account is disabled. */
export function* sessionAccountPlan(tokenHash: string, now: number): Plan<LiveSession | null> {
  return firstRow(yield {
    sql: `SELECT ${COLUMNS}, s.last_seen FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = $1 AND s.expires > $2 AND a.disabled = 0`,
    params: [tokenHash, now],
  }, (r) => ({ account: toAccount(r), lastSeen: numOrNull(r.last_seen) }));
}

export function* endSessionPlan(tokenHash: string): Plan<void> {
  yield { sql: 'DELETE FROM sessions WHERE token_hash = $1', params: [tokenHash] };
}

/** The secret of this name: `candidate` when none was kept yet (then kept), else the one kept. */
export function* secretPlan(name: string, candidate: string): Plan<string> {
  yield { sql: 'INSERT INTO site_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', params: [name, candidate] };
  const kept = firstRow(yield { sql: 'SELECT value FROM site_secrets WHERE name = $1', params: [name] }, (r) => text(r.value));
  if (kept === null) throw new Error(`the secret ${name} was neither kept nor found`);
  return kept;
}

/** Marks a session seen at `now`, unless it was seen since `since` (another request's mark counts). */
export function* touchSessionPlan(tokenHash: string, now: number, since: number): Plan<void> {
  yield { sql: 'UPDATE sessions SET last_seen = $1 WHERE token_hash = $2 AND (last_seen IS NULL OR last_seen < $3)', params: [now, tokenHash, since] };
}

/** A session as its account's page lists it; `current`: the one the page was asked with. */
export interface SessionRow {
  created: number;
  lastSeen: number;
  expires: number;
  current: boolean;
}

/** The account's live sessions, the most recently seen first (one never seen since it began: seen then). */
export function* sessionsOfPlan(accountId: number, currentHash: string, now: number): Plan<SessionRow[]> {
  return readRows(yield {
    sql: `SELECT token_hash, created, COALESCE(last_seen, created) AS seen, expires FROM sessions
      WHERE account_id = $1 AND expires > $2 ORDER BY seen DESC, created DESC`,
    params: [accountId, now],
  }, (r) => ({ created: num(r.created), lastSeen: num(r.seen), expires: num(r.expires), current: r.token_hash === currentHash }));
}

/** Every session of the account but `keepHash` ended (ASVS 3.3.4). */
export function* endOtherSessionsPlan(accountId: number, keepHash: string): Plan<void> {
  yield { sql: 'DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2', params: [accountId, keepHash] };
}

/**
 * A new password, while the session it is changed from still lives: every session of the
 * account ended and its reset link with them (ASVS 3.3.3), then this browser's new one, in
 * one transaction. False (nothing changed) when that session ended meanwhile.
 */
export function* changePasswordPlan(change: { accountId: number; passwordHash: string; fromHash: string; session: { tokenHash: string; now: number; expires: number } }): Plan<boolean> {
  const { accountId, session } = change;
  const changed = yield {
    sql: `UPDATE accounts SET password_hash = $1 WHERE disabled = 0
      AND id = (SELECT account_id FROM sessions WHERE token_hash = $2 AND account_id = $3 AND expires > $4) RETURNING id`,
    params: [change.passwordHash, change.fromHash, accountId, session.now],
  };
  if (changed.length === 0) return false;
  yield* endEverywherePlan(accountId);
  yield* createSessionPlan({ ...session, accountId });
  return true;
}

function* endEverywherePlan(accountId: number): Plan<void> {
  yield* endSessionsPlan(accountId);
  yield { sql: 'DELETE FROM password_resets WHERE account_id = $1', params: [accountId] };
}

export type ResetIssue = { issued: AccountRow } | { refused: 'unknown' | 'disabled' | 'role'; account: AccountRow | null };

/**
 * A reset link for the account named by `key`, when `allowed` takes its role: the account's
 * earlier link replaced by this one (one row per account), in one transaction with the check.
 */
export function* issueResetPlan(reset: { key: string; tokenHash: string; now: number; expires: number }, allowed: (target: Role) => boolean): Plan<ResetIssue> {
  const account = firstRow(yield { sql: `SELECT ${COLUMNS} FROM accounts a WHERE a.username_key = $1`, params: [reset.key] }, toAccount);
  if (account === null) return { refused: 'unknown', account };
  if (account.disabled) return { refused: 'disabled', account };
  if (!allowed(account.role)) return { refused: 'role', account };
  yield {
    sql: `INSERT INTO password_resets (account_id, token_hash, created, expires, used) VALUES ($1, $2, $3, $4, NULL)
      ON CONFLICT (account_id) DO UPDATE SET token_hash = excluded.token_hash, created = excluded.created, expires = excluded.expires, used = NULL`,
    params: [account.id, reset.tokenHash, reset.now, reset.expires],
  };
  return { issued: account };
}

/** The account a reset link is for, while the link is unused, unexpired and its account enabled. */
export function* resetAccountPlan(tokenHash: string, now: number): Plan<AccountRow | null> {
  return firstRow(yield {
    sql: `SELECT ${COLUMNS} FROM password_resets r JOIN accounts a ON a.id = r.account_id
      WHERE r.token_hash = $1 AND r.used IS NULL AND r.expires > $2 AND a.disabled = 0`,
    params: [tokenHash, now],
  }, toAccount);
}

/**
 * A reset link used: marked used first (so that of two at once only one finds it unused: the
 * other waits for the row and then sees it used), the password set, every session of the
 * account ended, in one transaction. False when the link was no longer usable.
 */
export function* useResetPlan(reset: { tokenHash: string; now: number; passwordHash: string }): Plan<boolean> {
  const accountId = firstRow(yield {
    sql: 'UPDATE password_resets SET used = $1 WHERE token_hash = $2 AND used IS NULL AND expires > $3 RETURNING account_id',
    params: [reset.now, reset.tokenHash, reset.now],
  }, (r) => num(r.account_id));
  if (accountId === null) return false;
  yield { sql: 'UPDATE accounts SET password_hash = $1 WHERE id = $2', params: [reset.passwordHash, accountId] };
  yield* endSessionsPlan(accountId);
  return true;
}
