// The contributors' accounts and sessions over the store (store/account-plans.ts): sign-up,
// sign-in, sessions, and what the command line does (`users`). Password hashing takes a turn
// of a gate (two at once, a short line), so a crowd signing in is refused with a 503 rather
// than holding libuv's threads and 32 MiB each; new passwords have a gate of their own (one
// at once), so that sign-ups, however many, never take sign-in's turns.
import { createHash, randomBytes } from 'node:crypto';
import type { CatalogueStore } from '../store/store.js';
import {
  accountsPlan, createAccountPlan, createSessionPlan, credentialsPlan, disablePlan, endSessionPlan, secretPlan, sessionAccountPlan, setRolePlan,
  type AccountRow, type NameRefusal,
} from '../store/account-plans.js';
import { Gate } from '../work/gate.js';
import { AUTHOR_NAME_PROBLEM, nameKey, nameLooks, nameProblem, nameSkeleton } from './names.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import type { Role } from './roles.js';

/** How long a session lasts from its sign-in (ASVS 3.3: a limit, whatever the activity). */
export const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

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

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export class Accounts {
  private secretKept: Promise<string> | null = null;

  constructor(
    private readonly store: AccountStore,
    private readonly hashing = new Gate('password checks', { running: 2, waiting: 16, waitMs: 10_000 }),
    private readonly now: () => number = Date.now,
    private readonly signUpHashing = new Gate('new passwords', { running: 1, waiting: 4, waitMs: 10_000 }),
  ) {}

  /**
   * A new account (a contributor unless the command line says otherwise, linked to the
   * catalogue author of its name with `author`), or why not. `admit` is asked once the form is
   * found right, before the hash is made: it throws to refuse (the sign-up throttle).
   */
  async create(username: string, password: string, options: NewAccountOptions = {}): Promise<SignUp> {
    const badName = nameProblem(username);
    if (badName !== null) return { problem: badName, field: 'username' };
    const badPassword = passwordProblem(password, username);
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
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expires = now + SESSION_LIFETIME_MS;
    await this.store.transact(createSessionPlan({ tokenHash: hashToken(token), accountId, now, expires }));
    return { token, expires };
  }

  /** The account a cookie's token signs in, while the session lives and the account is enabled. */
  sessionAccount(token: string): Promise<AccountRow | null> {
    return this.store.transact(sessionAccountPlan(hashToken(token), this.now()), 'read');
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
