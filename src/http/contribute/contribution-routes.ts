// Contributions and the editors' work (issue 37): a building's forms, the queue, a review
// (the page as it will be published, the fields to correct, approve or reject); a record's
// history and its undo are the editors' back office's (http/edit/history-routes.ts). Who may do what is checked before anything is read: a
// contributor asking for the queue or another's contribution gets 403, never its data.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mayModerate } from '../../accounts/roles.js';
import { CONTRIBUTION_KINDS, KIND_LISTS, readFields, type ContributionKind } from '../../contributions/kinds.js';
import { PictureProcess } from '../../contributions/picture-process.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { keptPicturePlan } from '../../store/contributions/picture-plans.js';
import { pictureUpload } from './picture-upload.js';
import {
  htmlContributeForm, htmlQueue, htmlReview, previewOf, type ContributionItem, type FeatureLabel,
} from '../../render/contribute/contributions.js';
import { featureName } from '../../render/site/record.js';
import { CONTRIBUTE_PATHS, SITE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/accounts/account-plans.js';
import {
  contributionPlan, correctPlan, fieldsDigest, publishChange, queuePlan, rejectPlan, sendContributionPlan, uploadOf,
  type ContributionRow, type Refusal,
} from '../../store/contributions/contribution-plans.js';
import type { FeatureRow } from '../../store/store.js';
import { pageAt } from '../../pages/request.js';
import { getReads } from '../../store/api/api-reads.js';
import { field, type ContributeDeps, type FormKit } from './routes.js';
import { EXPIRED_FORM } from './forms.js';
import { sameSitePath, signInFor } from './next.js';
import { ownPath, registerOwnRoutes } from './own-routes.js';

/** The queue's page shows at most this many, oldest first. */
const QUEUE_PAGE = 100;
const REASON_MAX = 500;

export const idOf = (text: string | undefined): number | null => (text !== undefined && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null);
const kindOf = (text: string): ContributionKind | null => CONTRIBUTION_KINDS.find((kind) => kind === text) ?? null;

const FIELD_NAMES = ['title', 'body', 'url', 'description', 'created', 'licence'] as const;
export const formFields = (body: unknown): Record<string, string> => Object.fromEntries(FIELD_NAMES.map((name) => [name, field(body, name)]));

/** The routes' parameters, as their paths (site/paths.ts) name them. */
interface FormRoute { Params: { featureId: string; kind: string } }
interface ContributionRoute { Params: { id: string } }

/** What every handler here shares. */
export interface Desk {
  store: ContributeDeps['store'];
  deps: ContributeDeps;
  kit: FormKit;
  receivePicture: ReturnType<typeof pictureUpload>;
}

export function registerContributionRoutes(scope: FastifyInstance, deps: ContributeDeps, kit: FormKit): void {
  const preparing = new PictureProcess();
  scope.addHook('onClose', async () => preparing.close());
  const building = async (featureId: string | undefined) => labelOf(await feature(deps.store, idOf(featureId)));
  const desk: Desk = { store: deps.store, deps, kit, receivePicture: pictureUpload(deps, kit, { building, slots: deps.uploads, preparing }) };

  scope.get<FormRoute>(CONTRIBUTE_PATHS.contributeRoute, (request, reply) => contributeForm(desk, request, reply));
  scope.post<FormRoute>(CONTRIBUTE_PATHS.contributeRoute, (request, reply) => contribute(desk, request, reply));
  scope.get<ContributionRoute>(`${CONTRIBUTE_PATHS.reviewRoute}/picture`, (request, reply) => reviewPicture(desk, request, reply));
  scope.get(CONTRIBUTE_PATHS.queue, (request, reply) => queue(desk, request, reply));
  scope.get<ContributionRoute>(CONTRIBUTE_PATHS.reviewRoute, async (request, reply) => ((await editor(desk, request, reply)) === null ? reply : review(desk, request, reply)));
  scope.post<ContributionRoute>(`${CONTRIBUTE_PATHS.reviewRoute}/approve`, (request, reply) => approve(desk, request, reply));
  scope.post<ContributionRoute>(`${CONTRIBUTE_PATHS.reviewRoute}/reject`, (request, reply) => reject(desk, request, reply));
  registerOwnRoutes(scope, desk);
}

export async function feature(store: Desk['store'], id: number | null): Promise<FeatureRow> {
  const found = id === null ? null : (await store.ask(getReads.features, id)).row;
  if (found === null) throw CONTRIBUTE_ERRORS.noSuchBuilding();
  return found;
}

/**
 * The signed-in account, or a 303 to the sign-in page (null: answered), which comes back to
 * `back` once signed in: the page asked for (a GET's own path), or a POST's form page.
 */
export async function signedIn({ kit }: Pick<Desk, 'kit'>, request: FastifyRequest, reply: FastifyReply, back: string | null = request.method === 'GET' ? request.url : null): Promise<AccountRow | null> {
  const { account } = await kit.signedIn(request);
  if (account === null) kit.see(reply, request, signInFor(sameSitePath(back)));
  return account;
}

/** An editor, or 303 to sign in, or 403 for anyone else (before anything is read). */
async function editor(desk: Desk, request: FastifyRequest, reply: FastifyReply, back?: string): Promise<AccountRow | null> {
  const account = await signedIn(desk, request, reply, back);
  if (account !== null && !mayModerate(account.role)) throw CONTRIBUTE_ERRORS.editorsOnly();
  return account;
}

function takenKind(text: string): ContributionKind {
  const kind = kindOf(text);
  if (kind === null) throw CONTRIBUTE_ERRORS.noSuchForm();
  return kind;
}

async function contributeForm(desk: Desk, request: FastifyRequest<FormRoute>, reply: FastifyReply) {
  const { featureId, kind: kindText } = request.params;
  const kind = takenKind(kindText);
  const account = await signedIn(desk, request, reply);
  if (account === null) return reply;
  const about = await feature(desk.store, idOf(featureId));
  return desk.kit.html(reply, 200, htmlContributeForm(pageAt(request), { kind, feature: labelOf(about), csrf: await desk.kit.formCsrf(request, reply), fields: { title: '', body: '', url: '' }, problem: null }));
}

/**
 * Writing or a video link sent: its csrf and account first; a form that had expired is shown
 * again as written (403), one with a problem says it (400), Preview shows it as it will be
 * published (nothing stored), and Send keeps it and says so on its own page.
 */
async function contribute(desk: Desk, request: FastifyRequest<FormRoute>, reply: FastifyReply) {
  const { store, kit } = desk;
  const { featureId, kind: kindText } = request.params;
  const kind = takenKind(kindText);
  if (kind === 'image') return desk.receivePicture(request, reply, featureId);
  const valid = await kit.formValid(request);
  const account = await signedIn(desk, request, reply, request.url);
  if (account === null) return reply;
  const about = await feature(store, idOf(featureId));
  const sent = formFields(request.body);
  const { fields, problems } = readFields(kind, sent);
  const problem = valid ? Object.values(problems)[0] ?? null : EXPIRED_FORM;
  const preview = problem === null && field(request.body, 'action') === 'preview' ? previewOf(kind, fields) : null;
  if (problem !== null || preview !== null) {
    const form = { kind, feature: labelOf(about), csrf: await kit.formCsrf(request, reply), fields: sent, problem, preview };
    return kit.html(reply, valid ? (problem === null ? 200 : 400) : 403, htmlContributeForm(pageAt(request), form));
  }
  const id = await store.transact(sendContributionPlan({ accountId: account.id, kind, featureId: about.id, fields, now: Date.now() }));
  return kit.see(reply, request, ownPath(id, 'sent'));
}

async function reviewPicture(desk: Desk, request: FastifyRequest<ContributionRoute>, reply: FastifyReply) {
  const { store } = desk;
  if ((await editor(desk, request, reply)) === null) return reply;
  const id = idOf(request.params.id);
  const found = id === null ? null : await store.transact(contributionPlan(id), 'read');
  const upload = found === null ? null : uploadOf(found);
  if (upload === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
  const kept = await store.transact(keptPicturePlan(upload, 'display'), 'read');
  if (kept === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
  return reply.type('image/jpeg').header('content-security-policy', "default-src 'none'; sandbox").send(kept.bytes);
}

async function queue(desk: Desk, request: FastifyRequest, reply: FastifyReply) {
  const { store } = desk;
  if ((await editor(desk, request, reply)) === null) return reply;
  const items = await withFeatures(store, await store.transact(queuePlan(QUEUE_PAGE), 'read'));
  return desk.kit.html(reply, 200, htmlQueue(pageAt(request), items));
}

/** A contribution's review page: to editors only (a contributor's own are listed under /account/). */
async function review(desk: Desk, request: FastifyRequest<ContributionRoute>, reply: FastifyReply, status = 200, problem: string | null = null, sent?: Record<string, string>) {
  const { store, kit } = desk;
  const id = idOf(request.params.id);
  const found = id === null ? null : await store.transact(contributionPlan(id), 'read');
  if (found === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
  const about = await feature(store, found.featureId).catch(() => null);
  const saved = status === 200 && request.method === 'GET' && Reflect.get(request.query ?? {}, 'saved') === '1';
  return kit.html(reply, status, htmlReview(pageAt(request), { contribution: found, feature: about, csrf: await kit.formCsrf(request, reply), problem, fields: sent, seen: fieldsDigest(found.fields), saved }));
}

/** A decision's form: its csrf, an editor, the contribution it is about (null: answered already). */
async function deciding(desk: Desk, request: FastifyRequest<ContributionRoute>, reply: FastifyReply): Promise<{ account: AccountRow; found: ContributionRow } | null> {
  await desk.kit.checkForm(request);
  // Signed out meanwhile: back to the review once signed in.
  const account = await editor(desk, request, reply, request.url.replace(/\/(approve|reject)$/, ''));
  if (account === null) return null;
  const id = idOf(request.params.id);
  const found = id === null ? null : await desk.store.transact(contributionPlan(id), 'read');
  if (found === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
  return { account, found };
}

/** A decision that changed nothing: the review as it is now, saying why (409), or 404 when it is gone. */
function refused(desk: Desk, request: FastifyRequest<ContributionRoute>, reply: FastifyReply, refusal: Refusal) {
  if (refusal.why === 'gone') throw CONTRIBUTE_ERRORS.noSuchContribution();
  return review(desk, request, reply, 409, refusalText(refusal));
}

async function approve(desk: Desk, request: FastifyRequest<ContributionRoute>, reply: FastifyReply) {
  const { store, kit } = desk;
  const decision = await deciding(desk, request, reply);
  if (decision === null) return reply;
  const { account, found } = decision;
  const sent = formFields(request.body);
  // The picture is the one sent, under the licence its contributor chose: an editor corrects its words, never its file nor its licence.
  const upload = uploadOf(found);
  const { fields, problems } = readFields(found.kind, upload === null || !('licence' in found.fields) ? sent : { ...sent, upload, licence: found.fields.licence });
  const problem = Object.values(problems)[0] ?? null;
  if (problem !== null) return review(desk, request, reply, 400, problem, sent);
  const edit = { fields, seen: field(request.body, 'seen') };
  if (field(request.body, 'action') === 'save') {
    const refusal = await store.transact(correctPlan(found.id, edit));
    return refusal === null ? kit.see(reply, request, `${CONTRIBUTE_PATHS.review(found.id)}?saved=1`) : refused(desk, request, reply, refusal);
  }
  const publication = publishChange(found.id, account.id, Date.now(), edit);
  const outcome = await store.applyChanges(publication);
  if (!outcome.ok) return review(desk, request, reply, 409, `It cannot be published: ${outcome.problems.map((p) => p.message).join('; ')}`);
  const refusal = publication.refusal();
  if (refusal !== null) return refused(desk, request, reply, refusal);
  if (outcome.version !== null) desk.deps.published(outcome.version);
  const published = await store.transact(contributionPlan(found.id), 'read');
  if (published?.state !== 'published' || published.recordId === null) throw CONTRIBUTE_ERRORS.alreadyDecided();
  return kit.see(reply, request, SITE_PATHS.record(KIND_LISTS[published.kind], published.recordId));
}

async function reject(desk: Desk, request: FastifyRequest<ContributionRoute>, reply: FastifyReply) {
  const decision = await deciding(desk, request, reply);
  if (decision === null) return reply;
  const { account, found } = decision;
  const reason = field(request.body, 'reason').trim();
  if (reason === '' || [...reason].length > REASON_MAX) return review(desk, request, reply, 400, `Say why it is not published, in at most ${REASON_MAX} characters: the contributor reads it.`);
  const refusal = await desk.store.transact(rejectPlan(found.id, account.id, reason, Date.now(), field(request.body, 'seen')));
  return refusal === null ? desk.kit.see(reply, request, CONTRIBUTE_PATHS.queue) : refused(desk, request, reply, refusal);
}

/** What a decision that changed nothing tells the editor. */
function refusalText(refusal: Exclude<Refusal, { why: 'gone' }>): string {
  if (refusal.why === 'no-picture') return 'Its picture is not in the store (it was sent before pictures were kept there): it cannot be published. Reject it, and ask its contributor to send it again.';
  const { contribution: c } = refusal;
  if (refusal.why === 'stale') return 'Someone saved a correction while this page was open: nothing was changed. The contribution as it is now is below; read it, then decide again.';
  const when = c.decided === null ? '' : ` on ${new Date(c.decided).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  if (c.state === 'rejected') return `This was rejected already${when}: nothing was changed.`;
  if (c.state === 'cancelled') return `Its contributor withdrew it${when}: nothing was changed.`;
  return `This was published already${when}${c.state === 'withdrawn' ? ', and has been withdrawn since' : ''}: nothing was changed.`;
}

function labelOf(f: FeatureRow): FeatureLabel {
  return { id: f.id, label: featureName(f) };
}

/** Contributions with the label of the building each is about (a building removed since: its number). */
export async function withFeatures(store: ContributeDeps['store'], rows: readonly ContributionRow[]): Promise<ContributionItem[]> {
  const labels = new Map<number, string | null>();
  for (const id of new Set(rows.map((r) => r.featureId))) {
    const row = (await store.ask(getReads.features, id)).row;
    labels.set(id, row === null ? null : featureName(row));
  }
  return rows.map((contribution) => ({ contribution, featureLabel: labels.get(contribution.featureId) ?? null }));
}

