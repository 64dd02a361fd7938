// A contributor's own contributions (issue 47): each one's page (the thanks once sent, its
// state, what it will look like), and while it waits their correction, under the same lock and
// digest as an editor's (contribution-plans.ts), and its withdrawal. Someone else's, or one
// that does not exist, is a 404 alike: nothing says whether it exists.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFields } from '../../contributions/kinds.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { htmlOwnContribution, type OwnNotice, type OwnPage } from '../../render/contribute/own.js';
import { CONTRIBUTE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/accounts/account-plans.js';
import { contributionPlan, fieldsDigest, ownCorrectPlan, uploadOf, withdrawPlan, type ContributionRow, type Refusal } from '../../store/contributions/contribution-plans.js';
import { keptPicturePlan } from '../../store/contributions/picture-plans.js';
import { pageAt } from '../../pages/request.js';
import { formFields, idOf, signedIn, withFeatures, type Desk } from './contribution-routes.js';
import { EXPIRED_FORM } from './forms.js';
import { field } from './routes.js';

interface OwnRoute { Params: { id: string }; Querystring: { done?: string } }

/** A contribution's own page, saying what was just done there. */
export const ownPath = (id: number, done: OwnNotice) => `${CONTRIBUTE_PATHS.mine(id)}?done=${done}`;

const NOTICES: readonly OwnNotice[] = ['sent', 'saved', 'withdrawn'];

export function registerOwnRoutes(scope: FastifyInstance, desk: Desk): void {
  scope.get<OwnRoute>(CONTRIBUTE_PATHS.mineRoute, (request, reply) => ownPage(desk, request, reply));
  scope.get<OwnRoute>(`${CONTRIBUTE_PATHS.mineRoute}/picture`, (request, reply) => ownPicture(desk, request, reply));
  scope.post<OwnRoute>(CONTRIBUTE_PATHS.mineRoute, (request, reply) => correct(desk, request, reply));
  scope.post<OwnRoute>(`${CONTRIBUTE_PATHS.mineRoute}/withdraw`, (request, reply) => withdraw(desk, request, reply));
}

/** The account's own contribution of the route's id, or a 404 (someone else's is as if there were none). */
async function own(desk: Desk, request: FastifyRequest<OwnRoute>, account: AccountRow): Promise<ContributionRow> {
  const id = idOf(request.params.id);
  const found = id === null ? null : await desk.store.transact(contributionPlan(id), 'read');
  if (found === null || found.accountId !== account.id) throw CONTRIBUTE_ERRORS.noSuchContribution();
  return found;
}

async function show(desk: Desk, request: FastifyRequest<OwnRoute>, reply: FastifyReply, found: ContributionRow, status: number, page: Pick<OwnPage, 'notice' | 'problem' | 'fields'>) {
  const [item] = await withFeatures(desk.store, [found]);
  if (item === undefined) throw CONTRIBUTE_ERRORS.noSuchContribution();
  const csrf = await desk.kit.formCsrf(request, reply);
  return desk.kit.html(reply, status, htmlOwnContribution(pageAt(request), { ...page, item, csrf, seen: fieldsDigest(found.fields) }));
}

async function ownPage(desk: Desk, request: FastifyRequest<OwnRoute>, reply: FastifyReply) {
  const account = await signedIn(desk, request, reply);
  if (account === null) return reply;
  const found = await own(desk, request, account);
  const notice = NOTICES.find((n) => n === request.query.done) ?? null;
  return show(desk, request, reply, found, 200, { notice, problem: null });
}

/** A waiting picture, to its author (an editor sees it from the review's own route). */
async function ownPicture(desk: Desk, request: FastifyRequest<OwnRoute>, reply: FastifyReply) {
  const account = await signedIn(desk, request, reply);
  if (account === null) return reply;
  const upload = uploadOf(await own(desk, request, account));
  const kept = upload === null ? null : await desk.store.transact(keptPicturePlan(upload, 'display'), 'read');
  if (kept === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
  return reply.type('image/jpeg').header('content-security-policy', "default-src 'none'; sandbox").send(kept.bytes);
}

/** What a change of the author's that changed nothing says, on the page as it is now (409). */
function refusalText(refusal: Exclude<Refusal, { why: 'gone' }>): string {
  if (refusal.why === 'stale') return 'It was changed since this page was opened (in another tab or browser): nothing was saved. It is below as it is now.';
  return 'An editor has decided on it already, so it can no longer be changed here: nothing was saved.';
}

async function refused(desk: Desk, request: FastifyRequest<OwnRoute>, reply: FastifyReply, account: AccountRow, refusal: Refusal) {
  if (refusal.why === 'gone') throw CONTRIBUTE_ERRORS.noSuchContribution();
  return show(desk, request, reply, await own(desk, request, account), 409, { notice: null, problem: refusalText(refusal) });
}

/** The author's correction: words only, a picture's file stays the one sent. */
async function correct(desk: Desk, request: FastifyRequest<OwnRoute>, reply: FastifyReply) {
  const valid = await desk.kit.formValid(request);
  const account = await signedIn(desk, request, reply, request.url);
  if (account === null) return reply;
  const found = await own(desk, request, account);
  const sent = formFields(request.body);
  const upload = uploadOf(found);
  const { fields, problems } = readFields(found.kind, upload === null ? sent : { ...sent, upload });
  const problem = valid ? Object.values(problems)[0] ?? null : EXPIRED_FORM;
  if (problem !== null) return show(desk, request, reply, found, valid ? 400 : 403, { notice: null, problem, fields: sent });
  const refusal = await desk.store.transact(ownCorrectPlan(found.id, account.id, { fields, seen: field(request.body, 'seen') }));
  return refusal === null ? desk.kit.see(reply, request, ownPath(found.id, 'saved')) : refused(desk, request, reply, account, refusal);
}

async function withdraw(desk: Desk, request: FastifyRequest<OwnRoute>, reply: FastifyReply) {
  await desk.kit.checkForm(request);
  const account = await signedIn(desk, request, reply, request.url.replace(/\/withdraw$/, ''));
  if (account === null) return reply;
  const found = await own(desk, request, account);
  const refusal = await desk.store.transact(withdrawPlan(found.id, account.id, Date.now()));
  return refusal === null ? desk.kit.see(reply, request, ownPath(found.id, 'withdrawn')) : refused(desk, request, reply, account, refusal);
}
