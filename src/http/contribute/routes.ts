// The contributors' face (issue 37), registered only with CONTRIBUTIONS on: the account pages
// here; contributions and the editors' queue beside them (contribution-routes.ts). Their own scope parses forms (at
// most 8 KiB, or 192 KiB for writing) and cookies, which no other route reads; every answer is for one person, so
// none is cached (Cache-Control: no-store), and the pages' CSP lets forms post here alone.
import cookie from '@fastify/cookie';
import { parseCookie } from 'cookie';
import { mayModerate } from '../../accounts/roles.js';
import formBody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { PICTURE_MAX_BYTES } from '../../contributions/pictures.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Accounts, type AccountStore, type SignUp } from '../../accounts/accounts.js';
import type { Gate } from '../../work/gate.js';
import { DEVICE_LIFETIME_MS, deviceCookie, deviceNonce } from '../../accounts/devices.js';
import { nameKey } from '../../accounts/names.js';
import { siteWords } from '../../accounts/passwords.js';
import { redisCounts } from '../../accounts/redis-counts.js';
import { SIGN_UPS_PER_CLIENT, SIGN_UPS_PER_SITE, SignInThrottle, SignUpThrottle, THROTTLE_WINDOW_MS } from '../../accounts/throttle.js';
import { connectRedis } from '../operations/rate-limit.js';
import type { Config } from '../../config.js';
import { ApiError, CONTRIBUTE_ERRORS } from '../../errors.js';
import { htmlAccount, htmlAccountForm } from '../../render/contribute/account.js';
import { CONTRIBUTE_PATHS, SITE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/accounts/account-plans.js';
import { contributionsOfPlan } from '../../store/contributions/contribution-plans.js';
import type { CatalogueStore } from '../../store/store.js';
import type { ServedStore } from '../../work/reads.js';
import { registerContributionRoutes, withFeatures } from './contribution-routes.js';
import { registerManageRoutes } from './manage-routes.js';
import { registerEditRoutes } from '../edit/routes.js';

import { CONTENT_TYPE_HTML, PAGE_HEADERS } from '../../pages/headers.js';
import { addressList, clientAddress, type AddressList } from '../operations/client-address.js';
import { pageAt } from '../../pages/request.js';
import { checkCsrf, clearSessionCookie, cookieNames, csrfToken, csrfValid, errorCode, EXPIRED_FORM, formBinding, isSecure, setDeviceCookie, setSessionCookie } from './forms.js';
import { nextOf } from './next.js';

export const FORM_BYTES = 8 * 1024;
/** Writing of 20,000 characters, percent-encoded (up to 9 bytes a character), with its title. */
export const CONTRIBUTION_FORM_BYTES = 192 * 1024;

export interface ContributeDeps {
  store: AccountStore & Pick<CatalogueStore, 'applyChanges'> & Pick<ServedStore, 'ask' | 'read' | 'replication'>;
  config: Config;
  /** Told the version an approval published, so that this process serves it at once. */
  published(version: number): void;
  /** The picture uploads' slots (picture-upload.ts), made by app.ts so that /metrics counts them. */
  uploads: Gate;
}

export interface Signed { account: AccountRow | null; token: string | null }

export const field = (body: unknown, name: string): string => {
  const value = typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
  return typeof value === 'string' ? value : '';
};

/** Whether a request comes from an editor's session: what the site asks to show its editors' links. */
export interface EditorCheck {
  isEditor(request: FastifyRequest): Promise<boolean>;
}

export async function registerContributeRoutes(app: FastifyInstance, deps: ContributeDeps): Promise<EditorCheck> {
  const accounts = new Accounts(deps.store, undefined, undefined, siteWords(app.site));
  // With REDIS_URL failed sign-ins and sign-ups are counted for every process at once (a Redis of its own connection, as the rate limit's).
  const redis = deps.config.redisUrl === null ? null : await connectRedis(deps.config.redisUrl, (message, error) => app.log.warn({ err: error }, message), 'Redis unavailable: failed sign-ins and sign-ups are counted per process until it is back');
  if (redis !== null) app.addHook('onClose', async () => redis.disconnect());
  const prefix = deps.config.redisKeyPrefix;
  const throttles: Throttles = {
    signIn: new SignInThrottle(redis === null ? null : redisCounts(redis, `${prefix}sign-in:`, THROTTLE_WINDOW_MS)),
    signUp: new SignUpThrottle(redis === null ? null : {
      client: redisCounts(redis, `${prefix}sign-up:client:`, SIGN_UPS_PER_CLIENT.windowMs),
      site: redisCounts(redis, `${prefix}sign-up:site:`, SIGN_UPS_PER_SITE.windowMs),
    }),
    exempt: addressList(deps.config.rateLimitExempt),
  };
  await app.register(async (scope) => {
    await scope.register(cookie);
    // On a read-only replica nothing here can be written: sent to the primary, or refused with why.
    scope.addHook('onRequest', async (request, reply) => {
      if ((await deps.store.replication?.())?.role !== 'replica') return;
      if (deps.config.primaryUrl === null) throw CONTRIBUTE_ERRORS.offReplica();
      return reply.code(307).header('location', `${deps.config.primaryUrl}${request.url}`).header('cache-control', 'no-store').send();
    });
    // The pages' headers, but a policy a page set for itself (a building's form lets its map's script in; a picture under review is sandboxed) is kept.
    scope.addHook('onSend', async (_request, reply) => {
      const own = reply.getHeader('content-security-policy');
      reply.headers(PAGE_HEADERS).header('cache-control', 'no-store');
      if (own !== undefined) reply.header('content-security-policy', own);
    });
    scope.setErrorHandler((error) => {
      if (errorCode(error) === 'FST_ERR_CTP_BODY_TOO_LARGE') throw CONTRIBUTE_ERRORS.formTooLarge();
      throw error;
    });
    const kit = formKit(deps, accounts);
    // Each face its own bound of a form's bytes: an account form is a name and a password.
    await scope.register(async (forms) => {
      await forms.register(formBody, { bodyLimit: FORM_BYTES });
      registerAccountRoutes(forms, deps, accounts, throttles, kit);
    });
    await scope.register(async (forms) => {
      await forms.register(formBody, { bodyLimit: CONTRIBUTION_FORM_BYTES });
      // A picture's form: one file of at most 20 MB, a few short fields; nothing written to disk by the parser.
      await forms.register(multipart, { limits: { fileSize: PICTURE_MAX_BYTES, files: 1, fields: 10, fieldSize: 8 * 1024, parts: 12, headerPairs: 50 } });
      registerContributionRoutes(forms, deps, kit);
    });
    await scope.register(async (editing) => registerEditRoutes(editing, deps, kit), { prefix: '' });
  });
  return { isEditor: (request) => isEditorRequest(accounts, deps.config, request) };
}

/** The session cookie read from the header itself (the site's routes parse no cookies), its account an editor's. */
async function isEditorRequest(accounts: Accounts, config: Config, request: FastifyRequest): Promise<boolean> {
  const token = parseCookie(request.headers.cookie ?? '')[cookieNames(isSecure(request, config)).session];
  if (token === undefined || token === '') return false;
  const account = await accounts.sessionAccount(token);
  return account !== null && mayModerate(account.role);
}

/** What every contributors' route shares: who is signed in, the forms' csrf, answers. */
export interface FormKit {
  secure(request: FastifyRequest): boolean;
  signedIn(request: FastifyRequest): Promise<Signed>;
  /** A form's csrf for this browser (its form cookie set when it has none). */
  formCsrf(request: FastifyRequest, reply: FastifyReply): Promise<string>;
  /** Refuses (403) a POST without this browser's csrf (the form's field, or `given` from a multipart form). */
  checkForm(request: FastifyRequest, given?: string): Promise<void>;
  /** Whether a POST carries this browser's csrf: false, its form is shown again with what was written (forms.ts EXPIRED_FORM). */
  formValid(request: FastifyRequest, given?: string): Promise<boolean>;
  html(reply: FastifyReply, status: number, body: string): FastifyReply;
  /** 303 to a path of this site. */
  see(reply: FastifyReply, request: FastifyRequest, path: string): FastifyReply;
}

function formKit(deps: ContributeDeps, accounts: Accounts): FormKit {
  const secure = (request: FastifyRequest) => isSecure(request, deps.config);
  return {
    secure,
    async signedIn(request) {
      const token = request.cookies[cookieNames(secure(request)).session] ?? null;
      return { token, account: token === null ? null : await accounts.sessionAccount(token) };
    },
    formCsrf: async (request, reply) => csrfToken(await accounts.secret(), formBinding(request, reply, secure(request))),
    checkForm: async (request, given = field(request.body, 'csrf')) => checkCsrf(request, await accounts.secret(), secure(request), given),
    formValid: async (request, given = field(request.body, 'csrf')) => csrfValid(request, await accounts.secret(), secure(request), given),
    html: (reply, status, body) => reply.code(status).type(CONTENT_TYPE_HTML).send(body),
    see: (reply, request, path) => reply.code(303).header('location', `${request.baseUrl}${path}`).send(),
  };
}

interface Throttles {
  signIn: SignInThrottle;
  signUp: SignUpThrottle;
  /** RATE_LIMIT_EXEMPT: the operator's addresses, not counted per address (throttle.ts). */
  exempt: AddressList;
}

/** What the account routes share. */
interface AccountDesk {
  deps: ContributeDeps;
  accounts: Accounts;
  throttles: Throttles;
  kit: FormKit;
}

function registerAccountRoutes(scope: FastifyInstance, deps: ContributeDeps, accounts: Accounts, throttles: Throttles, kit: FormKit): void {
  const desk: AccountDesk = { deps, accounts, throttles, kit };
  scope.get(CONTRIBUTE_PATHS.signUp, (request, reply) => accountForm(desk, request, reply, 'signup'));
  scope.post(CONTRIBUTE_PATHS.signUp, (request, reply) => signUp(desk, request, reply));
  scope.get(CONTRIBUTE_PATHS.signIn, (request, reply) => accountForm(desk, request, reply, 'signin'));
  scope.post(CONTRIBUTE_PATHS.signIn, (request, reply) => signIn(desk, request, reply));
  scope.post(CONTRIBUTE_PATHS.signOut, (request, reply) => signOut(desk, request, reply));
  scope.get(CONTRIBUTE_PATHS.account, (request, reply) => accountPage(desk, request, reply));
  registerManageRoutes(scope, deps, accounts, throttles.signIn, kit);
}

/** What an account form shows again: the name typed, the problem, where it goes on to. */
interface AccountValues { username: string; problem: string | null }

async function accountForm({ kit }: AccountDesk, request: FastifyRequest, reply: FastifyReply, kind: 'signup' | 'signin', status = 200, values: AccountValues = { username: '', problem: null }) {
  const csrf = await kit.formCsrf(request, reply);
  // A browser signed in already is told so (a page for one person: never cached).
  const { account } = status === 200 ? await kit.signedIn(request) : { account: null };
  return kit.html(reply, status, htmlAccountForm(pageAt(request), { kind, csrf, next: nextOf(request), signedInAs: account?.username ?? null, ...values }));
}

/**
 * Signed in as `account`: the old session (a fixation attempt, or another account's) ends, a
 * new one begins, and the browser is known as the account's from now on (a new device cookie);
 * then on to the form it came for (`next`, a path of this site), or the account's page.
 */
async function begin({ accounts, kit }: AccountDesk, request: FastifyRequest, reply: FastifyReply, account: AccountRow, old: string | null) {
  if (old !== null) await accounts.endSession(old);
  const session = await accounts.startSession(account.id);
  setSessionCookie(reply, kit.secure(request), session.token, session.expires);
  setDeviceCookie(reply, kit.secure(request), deviceCookie(await accounts.secret(), nameKey(account.username)), Date.now() + DEVICE_LIFETIME_MS);
  return kit.see(reply, request, nextOf(request) ?? CONTRIBUTE_PATHS.account);
}

const client = ({ deps }: AccountDesk, request: FastifyRequest) => clientAddress(request, deps.config.trustProxy);

/** Refuses (429) a sign-up past its allowance, counted once the form is found right. */
const admit = (desk: AccountDesk, request: FastifyRequest, reply: FastifyReply) => async () => {
  const address = client(desk, request);
  const wait = await desk.throttles.signUp.admit(address, desk.throttles.exempt.has(address));
  if (wait === 0) return;
  reply.header('retry-after', String(wait));
  throw CONTRIBUTE_ERRORS.signUpThrottled(wait);
};

async function signUp(desk: AccountDesk, request: FastifyRequest, reply: FastifyReply) {
  const { accounts, kit } = desk;
  const username = field(request.body, 'username').trim();
  const show = (status: number, problem: string) => accountForm(desk, request, reply, 'signup', status, { username, problem });
  if (!(await kit.formValid(request))) return show(403, EXPIRED_FORM);
  let made: SignUp;
  try {
    made = await accounts.create(username, field(request.body, 'password'), { admit: admit(desk, request, reply) });
  } catch (error) {
    // Too many sign-ups: the form again, saying how long to wait (Retry-After set by admit).
    if (error instanceof ApiError && error.status === 429) return show(429, error.detail);
    throw error;
  }
  if ('problem' in made) return show(400, made.problem);
  return begin(desk, request, reply, made.account, (await kit.signedIn(request)).token);
}

async function signIn(desk: AccountDesk, request: FastifyRequest, reply: FastifyReply) {
  const { accounts, throttles, kit } = desk;
  const username = field(request.body, 'username').trim();
  const show = (status: number, problem: string) => accountForm(desk, request, reply, 'signin', status, { username, problem });
  if (!(await kit.formValid(request))) return show(403, EXPIRED_FORM);
  const accountKey = nameKey(username);
  const device = deviceNonce(await accounts.secret(), request.cookies[cookieNames(kit.secure(request)).device], accountKey);
  const verdict = await throttles.signIn.check({ accountKey, client: client(desk, request), device });
  if (verdict.waitSeconds > 0) {
    reply.header('retry-after', String(verdict.waitSeconds));
    return show(429, CONTRIBUTE_ERRORS.signInThrottled(verdict.waitSeconds).detail);
  }
  const account = await accounts.check(username, field(request.body, 'password'));
  if (account === null) {
    await verdict.failed();
    return show(401, 'The account name or the password is wrong.');
  }
  return begin(desk, request, reply, account, (await kit.signedIn(request)).token);
}

async function signOut({ accounts, kit }: AccountDesk, request: FastifyRequest, reply: FastifyReply) {
  await kit.checkForm(request);
  const { token } = await kit.signedIn(request);
  if (token !== null) await accounts.endSession(token);
  clearSessionCookie(reply, kit.secure(request));
  return kit.see(reply, request, SITE_PATHS.about);
}

async function accountPage({ deps, accounts, kit }: AccountDesk, request: FastifyRequest, reply: FastifyReply) {
  const { account, token } = await kit.signedIn(request);
  if (account === null || token === null) return kit.see(reply, request, CONTRIBUTE_PATHS.signIn);
  const csrf = await kit.formCsrf(request, reply);
  const mine = await deps.store.transact(contributionsOfPlan(account.id), 'read');
  return kit.html(reply, 200, htmlAccount(pageAt(request), account, csrf, await withFeatures(deps.store, mine), await accounts.sessions(account.id, token)));
}
