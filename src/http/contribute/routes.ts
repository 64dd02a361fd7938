// The contributors' face (issue 37), registered only with CONTRIBUTIONS on: the account pages
// here; contributions and the editors' queue beside them. Their own scope parses forms (at
// most 8 KiB) and cookies, which no other route reads; every answer is for one person, so
// none is cached (Cache-Control: no-store), and the pages' CSP lets forms post here alone.
import cookie from '@fastify/cookie';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Accounts, type AccountStore } from '../../accounts/accounts.js';
import { nameKey } from '../../accounts/names.js';
import { SignInThrottle } from '../../accounts/throttle.js';
import type { Config } from '../../config.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { htmlAccount, htmlAccountForm } from '../../render/contribute/account.js';
import { CONTRIBUTE_PATHS, SITE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/account-plans.js';

import { CONTENT_TYPE_HTML, PAGE_HEADERS } from '../ogc/html.js';
import { clientAddress } from '../operations/client-address.js';
import { pageAt } from '../site/routes.js';
import { checkCsrf, clearSessionCookie, cookieNames, csrfToken, formBinding, isSecure, setSessionCookie } from './forms.js';

export const FORM_BYTES = 8 * 1024;

export interface ContributeDeps {
  store: AccountStore;
  config: Config;
}

interface Signed { account: AccountRow | null; token: string | null }

type Fields = Record<string, unknown>;
const field = (body: unknown, name: string): string => {
  const value = (body as Fields | null)?.[name];
  return typeof value === 'string' ? value : '';
};

export async function registerContributeRoutes(app: FastifyInstance, deps: ContributeDeps): Promise<void> {
  const accounts = new Accounts(deps.store);
  const throttle = new SignInThrottle();
  await app.register(async (scope) => {
    await scope.register(cookie);
    await scope.register(formBody, { bodyLimit: FORM_BYTES });
    scope.addHook('onSend', async (_request, reply) => {
      reply.headers(PAGE_HEADERS).header('cache-control', 'no-store');
    });
    scope.setErrorHandler((error) => {
      if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw CONTRIBUTE_ERRORS.formTooLarge();
      throw error;
    });
    registerAccountRoutes(scope, deps, accounts, throttle);
  });
}

function registerAccountRoutes(scope: FastifyInstance, deps: ContributeDeps, accounts: Accounts, throttle: SignInThrottle): void {
  const secure = (request: FastifyRequest) => isSecure(request, deps.config);
  const signedIn = async (request: FastifyRequest): Promise<Signed> => {
    const token = request.cookies[cookieNames(secure(request)).session] ?? null;
    return { token, account: token === null ? null : await accounts.sessionAccount(token) };
  };
  /** A form's csrf for this browser (its form cookie set when it has none), and the check of one posted. */
  const formCsrf = async (request: FastifyRequest, reply: FastifyReply) => csrfToken(await accounts.secret(), formBinding(request, reply, secure(request)));
  const checkForm = async (request: FastifyRequest) => checkCsrf(request, await accounts.secret(), secure(request), field(request.body, 'csrf'));
  const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).type(CONTENT_TYPE_HTML).send(body);
  const see = (reply: FastifyReply, request: FastifyRequest, path: string) => reply.code(303).header('location', `${request.baseUrl}${path}`).send();
  const form = async (request: FastifyRequest, reply: FastifyReply, kind: 'signup' | 'signin', status = 200, values = { username: '', problem: null as string | null }) => {
    const csrf = await formCsrf(request, reply);
    return html(reply, status, htmlAccountForm(pageAt(request), { kind, csrf, ...values }));
  };
  /** Signed in as `account`: the old session (a fixation attempt, or another account's) ends, a new one begins. */
  const begin = async (request: FastifyRequest, reply: FastifyReply, account: AccountRow, old: string | null) => {
    if (old !== null) await accounts.endSession(old);
    const session = await accounts.startSession(account.id);
    setSessionCookie(reply, secure(request), session.token, session.expires);
    return see(reply, request, CONTRIBUTE_PATHS.account);
  };

  scope.get(CONTRIBUTE_PATHS.signUp, (request, reply) => form(request, reply, 'signup'));
  scope.post(CONTRIBUTE_PATHS.signUp, async (request, reply) => {
    await checkForm(request);
    const username = field(request.body, 'username').trim();
    const made = await accounts.create(username, field(request.body, 'password'));
    if ('problem' in made) return form(request, reply, 'signup', 400, { username, problem: made.problem });
    return begin(request, reply, made.account, (await signedIn(request)).token);
  });

  scope.get(CONTRIBUTE_PATHS.signIn, (request, reply) => form(request, reply, 'signin'));
  scope.post(CONTRIBUTE_PATHS.signIn, async (request, reply) => {
    await checkForm(request);
    const username = field(request.body, 'username').trim();
    const client = clientAddress(request, deps.config.trustProxy);
    const wait = throttle.waitSeconds(nameKey(username), client);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw CONTRIBUTE_ERRORS.signInThrottled(wait);
    }
    const account = await accounts.check(username, field(request.body, 'password'));
    if (account === null) {
      throttle.failed(nameKey(username), client);
      return form(request, reply, 'signin', 401, { username, problem: 'The account name or the password is wrong.' });
    }
    return begin(request, reply, account, (await signedIn(request)).token);
  });

  scope.post(CONTRIBUTE_PATHS.signOut, async (request, reply) => {
    await checkForm(request);
    const { token } = await signedIn(request);
    if (token !== null) await accounts.endSession(token);
    clearSessionCookie(reply, secure(request));
    return see(reply, request, SITE_PATHS.about);
  });

  scope.get(CONTRIBUTE_PATHS.account, async (request, reply) => {
    const { account } = await signedIn(request);
    if (account === null) return see(reply, request, CONTRIBUTE_PATHS.signIn);
    const csrf = await formCsrf(request, reply);
    return html(reply, 200, htmlAccount(pageAt(request), account, csrf));
  });
}
