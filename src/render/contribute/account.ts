// The account pages: sign up, sign in, a contributor's own page (with their sessions), a
// password changed or set from a reset link, and the editors' page that issues those links.
import { NAME_RULE } from '../../accounts/names.js';
import { MIN_PASSWORD_LENGTH } from '../../accounts/passwords.js';
import { mayModerate, RESET_RULE } from '../../accounts/roles.js';
import type { AccountRow, SessionRow } from '../../store/accounts/account-plans.js';
import { listed, type ContributionItem } from './contributions.js';
import { homeCrumb, page, type PageAt } from '../../pages/shell.js';
import { CONTRIBUTE_PAGES } from './templates.js';
import { CONTRIBUTE_PATHS, EDIT_PATHS } from '../../site/paths.js';

/** What every form that sets a password says under it. */
const NEW_PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words are easy to remember and hard to guess.`;

/** The name rule, said before a name is refused for it (accounts/names.ts). */
const NAME_HINT = `${NAME_RULE[0]?.toUpperCase()}${NAME_RULE.slice(1)}: the name others see beside what you send.`;

const withNext = (path: string, next: string | null) => (next === null ? path : `${path}?next=${encodeURIComponent(next)}`);

/** A time as the account pages show it: to the minute, in UTC. */
const minute = (ms: number) => ({ iso: new Date(ms).toISOString(), text: `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC` });

export interface AccountForm {
  kind: 'signup' | 'signin';
  csrf: string;
  username: string;
  problem: string | null;
  /** Where the person goes on to once signed in (a path of this site), kept through both forms. */
  next: string | null;
  /** The account this browser is signed in to already, if any. */
  signedInAs: string | null;
}

export function htmlAccountForm(at: PageAt, form: AccountForm): string {
  const signUp = form.kind === 'signup';
  const title = signUp ? 'Create an account' : 'Sign in';
  return CONTRIBUTE_PAGES.render('account-form', {
    page: page(at, {
      title, heading: title, crumbs: [homeCrumb(at)], alternates: [],
      description: signUp ? `Create an account to add pictures, writing and video links to ${at.site.title}.` : `Sign in to add pictures, writing and video links to ${at.site.title}.`,
    }),
    problem: form.problem,
    action: `${at.baseUrl}${signUp ? CONTRIBUTE_PATHS.signUp : CONTRIBUTE_PATHS.signIn}`,
    csrf: form.csrf,
    next: form.next,
    username: form.username,
    nameHint: signUp ? NAME_HINT : null,
    passwordAutocomplete: signUp ? 'new-password' : 'current-password',
    passwordHint: signUp ? NEW_PASSWORD_HINT : null,
    submit: title,
    signedInAs: form.signedInAs === null ? null : { username: form.signedInAs, href: `${at.baseUrl}${CONTRIBUTE_PATHS.account}` },
    other: signUp
      ? { text: 'Have an account already?', href: `${at.baseUrl}${withNext(CONTRIBUTE_PATHS.signIn, form.next)}`, label: 'Sign in' }
      : { text: 'New here?', href: `${at.baseUrl}${withNext(CONTRIBUTE_PATHS.signUp, form.next)}`, label: 'Create an account' },
  });
}

export function htmlAccount(at: PageAt, account: AccountRow, csrf: string, contributions: readonly ContributionItem[], sessions: readonly SessionRow[]): string {
  return CONTRIBUTE_PAGES.render('account', {
    page: page(at, { title: 'Your account', heading: 'Your account', crumbs: [homeCrumb(at)], alternates: [], description: `Your account on ${at.site.title}.` }),
    username: account.username,
    role: account.role,
    signOut: `${at.baseUrl}${CONTRIBUTE_PATHS.signOut}`,
    csrf,
    contributions: contributions.map((item) => listed(at, item)),
    queue: mayModerate(account.role) ? `${at.baseUrl}${CONTRIBUTE_PATHS.queue}` : null,
    issueReset: mayModerate(account.role) ? `${at.baseUrl}${CONTRIBUTE_PATHS.issueReset}` : null,
    recent: `${at.baseUrl}${EDIT_PATHS.recent}`, changes: `${at.baseUrl}${EDIT_PATHS.changes}`,
    password: `${at.baseUrl}${CONTRIBUTE_PATHS.password}`,
    sessions: sessions.map((s) => ({ started: minute(s.created), seen: minute(s.lastSeen), current: s.current })),
    endOthers: sessions.some((s) => !s.current) ? `${at.baseUrl}${CONTRIBUTE_PATHS.endOtherSessions}` : null,
  });
}

/** A new password: `change` asks for the current one too; `reset` is a reset link's form. */
export interface PasswordForm {
  kind: 'change' | 'reset';
  csrf: string;
  /** Where the form posts: the account's page, or the link itself. */
  action: string;
  username: string;
  problem: string | null;
  /** Which field the problem is about. */
  problemField: 'current' | 'password' | null;
}

export function htmlPasswordForm(at: PageAt, form: PasswordForm): string {
  const change = form.kind === 'change';
  const title = change ? 'Change your password' : `Choose a new password for ${form.username}`;
  return CONTRIBUTE_PAGES.render('password-form', {
    page: page(at, { title, heading: title, crumbs: [homeCrumb(at), ...(change ? [{ href: `${at.baseUrl}${CONTRIBUTE_PATHS.account}`, label: 'Your account' }] : [])], alternates: [], description: title }),
    intro: change
      ? 'Once it is changed you stay signed in here, and are signed out everywhere else.'
      : 'This link works once, for an hour. Once the password is set, every session of the account ends and you sign in with the new password.',
    problem: form.problem,
    problemField: form.problemField,
    action: form.action,
    csrf: form.csrf,
    username: form.username,
    current: change,
    passwordHint: NEW_PASSWORD_HINT,
    submit: change ? 'Change the password' : 'Set the password',
  });
}

/** The editors' page that issues reset links; `issued`: the link just made. */
export interface ResetIssueForm {
  csrf: string;
  username: string;
  problem: string | null;
  issued: { username: string; url: string; expires: number } | null;
}

export function htmlResetIssue(at: PageAt, form: ResetIssueForm): string {
  const title = 'Issue a password reset link';
  return CONTRIBUTE_PAGES.render('reset-issue', {
    page: page(at, { title, heading: title, crumbs: [homeCrumb(at), { href: `${at.baseUrl}${CONTRIBUTE_PATHS.queue}`, label: 'The editors\' queue' }], alternates: [], description: title }),
    rule: RESET_RULE,
    issued: form.issued === null ? null : { ...form.issued, expires: minute(form.issued.expires) },
    problem: form.problem,
    action: `${at.baseUrl}${CONTRIBUTE_PATHS.issueReset}`,
    csrf: form.csrf,
    username: form.username,
  });
}
