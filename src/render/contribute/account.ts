// The account pages: sign up, sign in, and a contributor's own page.
import { MIN_PASSWORD_LENGTH } from '../../accounts/passwords.js';
import { mayModerate } from '../../accounts/roles.js';
import type { AccountRow } from '../../store/account-plans.js';
import { listed, type ContributionItem } from './contributions.js';
import { renderPage } from '../ogc/html/templates.js';
import { homeCrumb, page, type PageAt } from '../site/shell.js';
import { CONTRIBUTE_PATHS } from '../../site/paths.js';

export interface AccountForm {
  kind: 'signup' | 'signin';
  csrf: string;
  username: string;
  problem: string | null;
}

export function htmlAccountForm(at: PageAt, form: AccountForm): string {
  const signUp = form.kind === 'signup';
  const title = signUp ? 'Create an account' : 'Sign in';
  return renderPage('account-form', {
    page: page(at, {
      title, heading: title, crumbs: [homeCrumb(at)], alternates: [],
      description: signUp ? `Create an account to add pictures, writing and video links to ${at.site.title}.` : `Sign in to add pictures, writing and video links to ${at.site.title}.`,
    }),
    problem: form.problem,
    action: `${at.baseUrl}${signUp ? CONTRIBUTE_PATHS.signUp : CONTRIBUTE_PATHS.signIn}`,
    csrf: form.csrf,
    username: form.username,
    passwordAutocomplete: signUp ? 'new-password' : 'current-password',
    passwordHint: signUp ? `At least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words are easy to remember and hard to guess.` : null,
    submit: title,
    other: signUp
      ? { text: 'Have an account already?', href: `${at.baseUrl}${CONTRIBUTE_PATHS.signIn}`, label: 'Sign in' }
      : { text: 'New here?', href: `${at.baseUrl}${CONTRIBUTE_PATHS.signUp}`, label: 'Create an account' },
  });
}

export function htmlAccount(at: PageAt, account: AccountRow, csrf: string, contributions: readonly ContributionItem[]): string {
  return renderPage('account', {
    page: page(at, { title: 'Your account', heading: 'Your account', crumbs: [homeCrumb(at)], alternates: [], description: `Your account on ${at.site.title}.` }),
    username: account.username,
    role: account.role,
    signOut: `${at.baseUrl}${CONTRIBUTE_PATHS.signOut}`,
    csrf,
    contributions: contributions.map((item) => listed(at, item)),
    queue: mayModerate(account.role) ? `${at.baseUrl}${CONTRIBUTE_PATHS.queue}` : null,
  });
}
