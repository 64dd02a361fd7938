// The contributors' accounts and sessions over the store (store/accounts/account-plans.ts): sign-up,
// sign-in, sessions, and what the command line does (`users`). Password hashing takes a turn
// of a gate (two at once, a short line), so a crowd signing in is refused with a 503 rather
// than holding libuv's threads and 32 MiB each; new passwords have a gate of their own (one
// at once), so that sign-ups, however many, never take sign-in's turns.
import { createHash, randomBytes } from 'node:crypto';
import type { CatalogueStore } from '../store/store.js';
import {
  accountsPlan, changePasswordPlan, createAccountPlan, createSessionPlan, credentialsPlan, disablePlan, endOtherSessionsPlan, endSessionPlan, issueResetPlan,
  resetAccountPlan, secretPlan, sessionAccountPlan, sessionsOfPlan, setRolePlan, touchSessionPlan, useResetPlan,
  type AccountRow, type NameRefusal, type ResetIssue, type SessionRow,
} from '../store/accounts/account-plans.js';
import { Gate } from '../work/gate.js';
import { AUTHOR_NAME_PROBLEM, nameKey, nameLooks, nameProblem, nameSkeleton } from './names.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import type { Role } from './roles.js';

/** How long a session lasts from its sign-in (ASVS 3.3: a limit, whatever the activity). */
export const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** How long a reset link may be used, from when it was issued. */
export const RESET_LIFETIME_MS = 3600 * 1000;
/**
 * A session's last use is written at most this often: reading a page then writes nothing
 * (or one row a minute per session), so "last seen" on the account page is at most a minute early.
 */
export const SEEN_EVERY_MS = 60 * 1000;

export type AccountStore = Pick<CatalogueStore, 'transact'>;

export type SignUp = { account: AccountRow } | { problem: string; field: 'username' | 'password' };

export interface NewAccountOptions {
  role?: Role;
  author?: boolean;
  admit?: () => Promise<void>;
}

const NAME_REFUSALS: Record<NameRefusal, (username: string) => string> = {
  taken: () => 'That account name is taken: choose another.',
  looksLike: () => 'That account name looks like one that is taken: choose another.',
  author: () => AUTHOR_NAME_PROBLEM,
  noAuthor: (username) => `There is no catalogue author named ${username}: --author links the account to the author of exactly that name.`,
  authorLinked: (username) => `The catalogue author ${username} is linked to another account already.`,
};

export interface Session {
  /** What the cookie holds: 32 random bytes, base64url. */
  token: string;
  expires: number;
}

export type PasswordChange = { session: Session } | { refused: 'current' | 'signedOut' } | { refused: 'policy'; problem: string };
export type ResetOutcome = { done: AccountRow } | { refused: 'gone' } | { refused: 'policy'; problem: string; account: AccountRow };

/** A session's or reset link's token: 32 random bytes, base64url (43 characters). */
const newToken = () => randomBytes(32).toString('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export class Accounts {
  private secretKept: Promise<string> | null = null;

  constructor(
    private readonly store: AccountStore,
    private readonly hashing = new Gate('password checks', { running: 2, waiting: 16, waitMs: 10_000 }),
    private readonly now: () => number = Date.now,
    /** The site's words (passwords.siteWords), which no new password may lean on. */
    private readonly siteWords: readonly string[] = [],
    private readonly signUpHashing = new Gate('new passwords', { running: 1, waiting: 16, waitMs: 10_000 }),
  ) {}

  /**
   * A new account (a contributor unless the command line says otherwise, linked to the
   * catalogue author of its name with `author`), or why not. `admit` is asked once the form is
   * found right, before the hash is made: it throws to refuse (the sign-up throttle).
   */
  async create(username: string, password: string, options: NewAccountOptions = {}): Promise<SignUp> {
    const badName = nameProblem(username);
    if (badName !== null) return { problem: badName, field: 'username' };
    const badPassword = this.passwordProblem(password, username);
    if (badPassword !== null) return { problem: badPassword, field: 'password' };
    await options.admit?.();
    // A gate of its own: a crowd signing up waits in its own line, never in sign-in's.
    const passwordHash = await this.signUpHashing.run(() => hashPassword(password));
    const made = await this.store.transact(createAccountPlan({
      username, key: nameKey(username), looks: nameLooks(username), passwordHash, role: options.role ?? 'contributor', now: this.now(), author: options.author ?? false,
    }, nameSkeleton));
    return 'account' in made ? made : { problem: NAME_REFUSALS[made.refused](username), field: 'username' };
  }

  /**
   * The account, when the name and password are right and it is not disabled; else null, the
   * same for every reason and after the same work (a hash checked whether or not the name exists).
   */
  async check(username: string, password: string): Promise<AccountRow | null> {
    const found = await this.store.transact(credentialsPlan(nameKey(username)), 'read');
    const right = await this.hashing.run(() => verifyPassword(password, found?.passwordHash ?? null));
    if (!right || found === null || found.disabled) return null;
    const { passwordHash: _, ...account } = found;
    return account;
  }

  /** A new session of the account: a new token at every sign-in (no fixation). */
  async startSession(accountId: number): Promise<Session> {
    const session = this.newSession();
    await this.store.transact(createSessionPlan({ ...session.row, accountId }));
    return session.cookie;
  }

  private newSession(): { cookie: Session; row: { tokenHash: string; now: number; expires: number } } {
    const token = newToken();
    const now = this.now();
    const expires = now + SESSION_LIFETIME_MS;
    return { cookie: { token, expires }, row: { tokenHash: hashToken(token), now, expires } };
  }

  /** The account a cookie's token signs in, while the session lives and the account is enabled; its use noted. */
  async sessionAccount(token: string): Promise<AccountRow | null> {
    const tokenHash = hashToken(token);
    const now = this.now();
    const live = await this.store.transact(sessionAccountPlan(tokenHash, now), 'read');
    if (live === null) return null;
    if (live.lastSeen === null || now - live.lastSeen >= SEEN_EVERY_MS) {
      // Only a note for the account page: a write that fails (a store busy with an import) refuses nothing.
      await this.store.transact(touchSessionPlan(tokenHash, now, now - SEEN_EVERY_MS)).catch(() => undefined);
    }
    return live.account;
  }

  /** The account's live sessions, the one of `token` marked. */
  sessions(accountId: number, token: string): Promise<SessionRow[]> {
    return this.store.transact(sessionsOfPlan(accountId, hashToken(token), this.now()), 'read');
  }

  /** Signed out everywhere but with `token` (ASVS 3.3.4). */
  endOtherSessions(accountId: number, token: string): Promise<void> {
    return this.store.transact(endOtherSessionsPlan(accountId, hashToken(token)));
  }

  /**
   * A new password for the account signed in with `token`: the current one checked first (as a
   * sign-in checks it: the same gate), then the policy; every session ends, this browser's
   * with a new token (ASVS 3.3.3). `signedOut`: the session ended meanwhile, nothing changed.
   */
  async changePassword(account: AccountRow, token: string, current: string, password: string): Promise<PasswordChange> {
    if ((await this.check(account.username, current)) === null) return { refused: 'current' };
    const problem = this.passwordProblem(password, account.username);
    if (problem !== null) return { refused: 'policy', problem };
    const passwordHash = await this.hashing.run(() => hashPassword(password));
    const session = this.newSession();
    const changed = await this.store.transact(changePasswordPlan({ accountId: account.id, passwordHash, fromHash: hashToken(token), session: session.row }));
    return changed ? { session: session.cookie } : { refused: 'signedOut' };
  }

  endSession(token: string): Promise<void> {
    return this.store.transact(endSessionPlan(hashToken(token)));
  }

  list(): Promise<AccountRow[]> {
    return this.store.transact(accountsPlan(), 'read');
  }

  setRole(username: string, role: Role): Promise<boolean> {
    return this.store.transact(setRolePlan(nameKey(username), role));
  }

  /** Disabled, and signed out everywhere at once. */
  disable(username: string): Promise<boolean> {
    return this.store.transact(disablePlan(nameKey(username)));
  }

  /**
   * A single-use link's token for the account, valid RESET_LIFETIME_MS, replacing any earlier
   * one, when `allowed` takes the account's role; only its SHA-256 is kept.
   */
  async issueReset(username: string, allowed: (target: Role) => boolean = () => true): Promise<ResetIssue & { token: string; expires: number }> {
    const token = newToken();
    const now = this.now();
    const expires = now + RESET_LIFETIME_MS;
    const issue = await this.store.transact(issueResetPlan({ key: nameKey(username), tokenHash: hashToken(token), now, expires }, allowed));
    return { ...issue, token, expires };
  }

  /** The account a reset link's token is for, while it may be used; null for any other text. */
  resetAccount(token: string): Promise<AccountRow | null> {
    if (!TOKEN.test(token)) return Promise.resolve(null);
    return this.store.transact(resetAccountPlan(hashToken(token), this.now()), 'read');
  }

  /**
   * The link used: the new password (the sign-up policy) set, every session of the account
   * ended, the link marked used, in one transaction; `gone` when it cannot be used (any more).
   */
  async reset(token: string, password: string): Promise<ResetOutcome> {
    const account = await this.resetAccount(token);
    if (account === null) return { refused: 'gone' };
    const problem = this.passwordProblem(password, account.username);
    if (problem !== null) return { refused: 'policy', problem, account };
    const passwordHash = await this.hashing.run(() => hashPassword(password));
    const used = await this.store.transact(useResetPlan({ tokenHash: hashToken(token), now: this.now(), passwordHash }));
    return used ? { done: account } : { refused: 'gone' };
  }

  /** Why a new password is refused, at sign-up, a change and a reset alike: the policy with this site's words. */
  private passwordProblem(password: string, username: string): string | null {
    return passwordProblem(password, username, this.siteWords);
  }

  /** The site's key for its forms' tokens: made once, kept in the store, shared by every process. */
  secret(): Promise<string> {
    if (this.secretKept === null) {
      const kept = this.store.transact(secretPlan('forms', randomBytes(32).toString('base64url')));
      // A failed read is not kept: the next form asks again.
      kept.catch(() => { if (this.secretKept === kept) this.secretKept = null; });
      this.secretKept = kept;
    }
    return this.secretKept;
  }
}
