// Accounts people manage (issue 45; OWASP ASVS 4.0.3 V2.1.5, V3.3.3, V3.3.4): a password
// changed with the current one, one's other sessions ended, and a reset without e-mail: a
// single-use link, valid an hour, that an editor issues here (or an operator with `users
// reset`). Each write is one store transaction (accounts.ts); the pages are the account pages'.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts } from '../../accounts/accounts.js';
import { nameKey } from '../../accounts/names.js';
import { mayIssueReset, mayModerate, type Role } from '../../accounts/roles.js';
import type { SignInThrottle } from '../../accounts/throttle.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { htmlPasswordForm, htmlResetIssue, type PasswordForm, type ResetIssueForm } from '../../render/contribute/account.js';
import { CONTRIBUTE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/account-plans.js';
import { clientAddress } from '../operations/client-address.js';
import { pageAt } from '../../pages/request.js';
import { clearSessionCookie, setSessionCookie } from './forms.js';
import { field, type ContributeDeps, type FormKit } from './routes.js';


export function registerManageRoutes(scope: FastifyInstance, deps: ContributeDeps, accounts: Accounts, throttle: SignInThrottle, kit: FormKit): void {
  registerPasswordChange(scope, deps, accounts, throttle, kit);
  registerEndOthers(scope, accounts, kit);
  registerReset(scope, accounts, kit);
  registerIssueReset(scope, accounts, kit);
}

/** The signed-in account and its session's token, or a 303 to the sign-in page (null: answered). */
async function signedIn(kit: FormKit, request: FastifyRequest, reply: FastifyReply): Promise<{ account: AccountRow; token: string } | null> {
  const { account, token } = await kit.signedIn(request);
  if (account !== null && token !== null) return { account, token };
  kit.see(reply, request, CONTRIBUTE_PATHS.signIn);
  return null;
}

async function passwordPage(kit: FormKit, request: FastifyRequest, reply: FastifyReply, status: number, form: Omit<PasswordForm, 'csrf'>): Promise<FastifyReply> {
  return kit.html(reply, status, htmlPasswordForm(pageAt(request), { ...form, csrf: await kit.formCsrf(request, reply) }));
}

function registerPasswordChange(scope: FastifyInstance, deps: ContributeDeps, accounts: Accounts, throttle: SignInThrottle, kit: FormKit): void {
  const action = (request: FastifyRequest) => `${request.baseUrl}${CONTRIBUTE_PATHS.password}`;
  scope.get(CONTRIBUTE_PATHS.password, async (request, reply) => {
    const signed = await signedIn(kit, request, reply);
    if (signed === null) return reply;
    return passwordPage(kit, request, reply, 200, { kind: 'change', action: action(request), username: signed.account.username, problem: null, problemField: null });
  });
  scope.post(CONTRIBUTE_PATHS.password, (request, reply) => changePassword({ deps, accounts, throttle, kit }, request, reply));
}

/** A password changed by its account, the current one checked against the sign-in's throttle. */
async function changePassword({ deps, accounts, throttle, kit }: PasswordDesk, request: FastifyRequest, reply: FastifyReply) {
  const action = `${request.baseUrl}${CONTRIBUTE_PATHS.password}`;
  await kit.checkForm(request);
  const signed = await signedIn(kit, request, reply);
  if (signed === null) return reply;
  const { account, token } = signed;
  // The current password is guessed against the sign-in's own throttle: a stolen session gets no more tries than a stranger.
  const key = nameKey(account.username);
  const client = clientAddress(request, deps.config.trustProxy);
  // Counted against the name, never a device's own allowance: a stolen session's browser may hold the device cookie too.
  const verdict = await throttle.check({ accountKey: key, client, device: null });
  if (verdict.waitSeconds > 0) {
    reply.header('retry-after', String(verdict.waitSeconds));
    throw CONTRIBUTE_ERRORS.signInThrottled(verdict.waitSeconds);
  }
  const changed = await accounts.changePassword(account, token, field(request.body, 'current'), field(request.body, 'password'));
  const again = (problem: string, problemField: PasswordForm['problemField']) =>
    passwordPage(kit, request, reply, 400, { kind: 'change', action, username: account.username, problem, problemField });
  if ('session' in changed) {
    setSessionCookie(reply, kit.secure(request), changed.session.token, changed.session.expires);
    return kit.see(reply, request, CONTRIBUTE_PATHS.account);
  }
  if (changed.refused === 'current') {
    await verdict.failed();
    return again('The current password is wrong.', 'current');
  }
  if (changed.refused === 'policy') return again(changed.problem, 'password');
  clearSessionCookie(reply, kit.secure(request));
  return kit.see(reply, request, CONTRIBUTE_PATHS.signIn);
}

interface PasswordDesk {
  deps: ContributeDeps;
  accounts: Accounts;
  throttle: SignInThrottle;
  kit: FormKit;
}

function registerEndOthers(scope: FastifyInstance, accounts: Accounts, kit: FormKit): void {
  scope.post(CONTRIBUTE_PATHS.endOtherSessions, async (request, reply) => {
    await kit.checkForm(request);
    const signed = await signedIn(kit, request, reply);
    if (signed === null) return reply;
    await accounts.endOtherSessions(signed.account.id, signed.token);
    return kit.see(reply, request, CONTRIBUTE_PATHS.account);
  });
}

/** The reset link's route: its token in the path (site/paths.ts). */
interface ResetRoute { Params: { token: string } }

function registerReset(scope: FastifyInstance, accounts: Accounts, kit: FormKit): void {
  // The page's address is the link: no Referer may carry it anywhere, this site's other pages included.
  scope.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.url === CONTRIBUTE_PATHS.resetRoute) reply.header('referrer-policy', 'no-referrer');
  });
  const tokenOf = (request: FastifyRequest<ResetRoute>) => request.params.token;
  const form = (request: FastifyRequest<ResetRoute>, username: string): Omit<PasswordForm, 'csrf' | 'problem' | 'problemField'> =>
    ({ kind: 'reset', action: `${request.baseUrl}${CONTRIBUTE_PATHS.reset(tokenOf(request))}`, username });
  scope.get<ResetRoute>(CONTRIBUTE_PATHS.resetRoute, async (request, reply) => {
    const account = await accounts.resetAccount(tokenOf(request));
    if (account === null) throw CONTRIBUTE_ERRORS.noSuchResetLink();
    return passwordPage(kit, request, reply, 200, { ...form(request, account.username), problem: null, problemField: null });
  });
  scope.post<ResetRoute>(CONTRIBUTE_PATHS.resetRoute, async (request, reply) => {
    await kit.checkForm(request);
    const outcome = await accounts.reset(tokenOf(request), field(request.body, 'password'));
    if ('done' in outcome) return kit.see(reply, request, CONTRIBUTE_PATHS.signIn);
    if (outcome.refused === 'gone') throw CONTRIBUTE_ERRORS.noSuchResetLink();
    return passwordPage(kit, request, reply, 400, { ...form(request, outcome.account.username), problem: outcome.problem, problemField: 'password' });
  });
}

function registerIssueReset(scope: FastifyInstance, accounts: Accounts, kit: FormKit): void {
  /** An editor or admin, or 303 to sign in, or 403 for anyone else (before anything is read). */
  const issuer = async (request: FastifyRequest, reply: FastifyReply): Promise<AccountRow | null> => {
    const signed = await signedIn(kit, request, reply);
    if (signed !== null && !mayModerate(signed.account.role)) throw CONTRIBUTE_ERRORS.mayNotIssueReset();
    return signed?.account ?? null;
  };
  const page = async (request: FastifyRequest, reply: FastifyReply, status: number, form: Omit<ResetIssueForm, 'csrf'>) =>
    kit.html(reply, status, htmlResetIssue(pageAt(request), { ...form, csrf: await kit.formCsrf(request, reply) }));
  scope.get(CONTRIBUTE_PATHS.issueReset, async (request, reply) => {
    if ((await issuer(request, reply)) === null) return reply;
    return page(request, reply, 200, { username: '', problem: null, issued: null });
  });
  scope.post(CONTRIBUTE_PATHS.issueReset, async (request, reply) => {
    await kit.checkForm(request);
    const account = await issuer(request, reply);
    if (account === null) return reply;
    const username = field(request.body, 'username').trim();
    const refuse = (status: number, problem: string) => page(request, reply, status, { username, problem, issued: null });
    if (username === '') return refuse(400, 'Give the name of the account.');
    const issue = await accounts.issueReset(username, (target) => mayIssueReset(account.role, target));
    if ('issued' in issue) {
      const url = `${request.baseUrl}${CONTRIBUTE_PATHS.reset(issue.token)}`;
      return page(request, reply, 200, { username: '', problem: null, issued: { username: issue.issued.username, url, expires: issue.expires } });
    }
    if (issue.refused === 'unknown' || issue.account === null) return refuse(400, `There is no account ${username}.`);
    if (issue.refused === 'disabled') return refuse(400, `${issue.account.username} is disabled: a new password would not sign it in.`);
    return refuse(403, `${issue.account.username} is ${ROLE_NAMES[issue.account.role]}: an editor may issue links for contributors' accounts only.`);
  });
}

const ROLE_NAMES: Readonly<Record<Role, string>> = { contributor: 'a contributor', editor: 'an editor', admin: 'an admin' };
