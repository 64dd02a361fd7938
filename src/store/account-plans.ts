// The contributors' reads and writes (account-schema.ts) as plans, written once for both
// stores and run in one read-write transaction each (CatalogueStore.transact).
import type { Role } from '../accounts/roles.js';
import type { Plan } from './read-plans.js';

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

type Flat = { id: number | string; username: string; role: string; disabled: number | string | boolean; created: number | string; password_hash?: string };

const COLUMNS = 'a.id, a.username, a.role, a.disabled, a.created';

function toAccount(r: Flat): AccountRow {
  return { id: Number(r.id), username: r.username, role: r.role as Role, disabled: Number(r.disabled) === 1 || r.disabled === true, created: Number(r.created) };
}

/** The new account's row, or null when the (folded) name is taken. */
export function* createAccountPlan(account: { username: string; key: string; passwordHash: string; role: Role; now: number }): Plan<AccountRow | null> {
  const rows = (yield {
    sql: `INSERT INTO accounts (username, username_key, password_hash, role, disabled, created) VALUES ($1, $2, $3, $4, 0, $5)
      ON CONFLICT (username_key) DO NOTHING RETURNING id, username, role, disabled, created`,
    params: [account.username, account.key, account.passwordHash, account.role, account.now],
  }) as Flat[];
  return rows[0] === undefined ? null : toAccount(rows[0]);
}

export function* credentialsPlan(key: string): Plan<AccountCredentials | null> {
  const rows = (yield { sql: `SELECT ${COLUMNS}, a.password_hash FROM accounts a WHERE a.username_key = $1`, params: [key] }) as Flat[];
  const r = rows[0];
  return r === undefined ? null : { ...toAccount(r), passwordHash: r.password_hash! };
}

export function* accountsPlan(): Plan<AccountRow[]> {
  return ((yield { sql: `SELECT ${COLUMNS} FROM accounts a ORDER BY a.username_key`, params: [] }) as Flat[]).map(toAccount);
}

/** Whether the account exists; its role changed. */
export function* setRolePlan(key: string, role: Role): Plan<boolean> {
  return ((yield { sql: 'UPDATE accounts SET role = $1 WHERE username_key = $2 RETURNING id', params: [role, key] }) as unknown[]).length === 1;
}

/** Whether the account exists; disabled, every session of it ended in the same transaction. */
export function* disablePlan(key: string): Plan<boolean> {
  const rows = (yield { sql: 'UPDATE accounts SET disabled = 1 WHERE username_key = $1 RETURNING id', params: [key] }) as { id: number | string }[];
  if (rows[0] === undefined) return false;
  yield { sql: 'DELETE FROM sessions WHERE account_id = $1', params: [Number(rows[0].id)] };
  return true;
}

export function* createSessionPlan(session: { tokenHash: string; accountId: number; now: number; expires: number }): Plan<void> {
  // Expired sessions go as new ones come: the table holds the live ones and a few more.
  yield { sql: 'DELETE FROM sessions WHERE expires <= $1', params: [session.now] };
  yield { sql: 'INSERT INTO sessions (token_hash, account_id, created, expires) VALUES ($1, $2, $3, $4)', params: [session.tokenHash, session.accountId, session.now, session.expires] };
}

/** The account a live session is of; none once it has expired or its account is disabled. */
export function* sessionAccountPlan(tokenHash: string, now: number): Plan<AccountRow | null> {
  const rows = (yield {
    sql: `SELECT ${COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = $1 AND s.expires > $2 AND a.disabled = 0`,
    params: [tokenHash, now],
  }) as Flat[];
  return rows[0] === undefined ? null : toAccount(rows[0]);
}

export function* endSessionPlan(tokenHash: string): Plan<void> {
  yield { sql: 'DELETE FROM sessions WHERE token_hash = $1', params: [tokenHash] };
}

/** The secret of this name: `candidate` when none was kept yet (then kept), else the one kept. */
export function* secretPlan(name: string, candidate: string): Plan<string> {
  yield { sql: 'INSERT INTO site_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', params: [name, candidate] };
  const rows = (yield { sql: 'SELECT value FROM site_secrets WHERE name = $1', params: [name] }) as { value: string }[];
  return rows[0]!.value;
}
