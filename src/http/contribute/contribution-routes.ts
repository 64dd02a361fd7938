// Contributions and the editors' work (issue 37): a building's forms, the queue, a review
// (the page as it will be published, the fields to correct, approve or reject), and a
// record's history with its undo. Who may do what is checked before anything is read: a
// contributor asking for the queue or another's contribution gets 403, never its data.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mayModerate } from '../../accounts/roles.js';
import { CONTRIBUTION_KINDS, KIND_LISTS, readFields, type ContributionKind } from '../../contributions/kinds.js';
import { PictureProcess } from '../../contributions/picture-process.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { keptPicturePlan } from '../../store/contributions/picture-plans.js';
import { pictureUpload } from './picture-upload.js';
import type { OgcCollection } from '../../ogc/properties.js';
import {
  htmlContributeForm, htmlHistory, htmlQueue, htmlReview, type ContributionItem, type FeatureLabel,
} from '../../render/contribute/contributions.js';
import { featureName } from '../../render/site/record.js';
import { CONTRIBUTE_PATHS, SITE_COLLECTIONS, SITE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/accounts/account-plans.js';
import {
  contributionPlan, correctPlan, fieldsDigest, publishChange, queuePlan, recordChangePlan, recordHistoryPlan, rejectPlan, revertChange, sendContributionPlan, uploadOf,
  type ContributionRow, type Refusal,
} from '../../store/contributions/contribution-plans.js';
import type { FeatureRow } from '../../store/store.js';
import { askRecord, getReads } from '../../store/api/api-reads.js';
import { pageAt } from '../site/routes.js';
import { field, type ContributeDeps, type FormKit } from './routes.js';

/** The queue's page shows at most this many, oldest first. */
const QUEUE_PAGE = 100;
const REASON_MAX = 500;

const idOf = (text: string | undefined): number | null => (text !== undefined && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null);
const kindOf = (text: string | undefined): ContributionKind | null => ((CONTRIBUTION_KINDS as readonly string[]).includes(text ?? '') ? (text as ContributionKind) : null);

type Params = Record<string, string | undefined>;
const FIELD_NAMES = ['title', 'body', 'url', 'description', 'created', 'licence'] as const;
const formFields = (body: unknown): Record<string, string> => Object.fromEntries(FIELD_NAMES.map((name) => [name, field(body, name)]));

export function registerContributionRoutes(scope: FastifyInstance, deps: ContributeDeps, kit: FormKit): void {
  const { store } = deps;
  const feature = async (id: number | null): Promise<FeatureRow> => {
    const found = id === null ? null : (await store.ask(getReads.features, id)).row;
    if (found === null) throw CONTRIBUTE_ERRORS.noSuchBuilding();
    return found;
  };
  /** The signed-in account, or a 303 to the sign-in page (null: answered). */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply): Promise<AccountRow | null> => {
    const { account } = await kit.signedIn(request);
    if (account === null) kit.see(reply, request, CONTRIBUTE_PATHS.signIn);
    return account;
  };
  /** An editor, or 303 to sign in, or 403 for anyone else (before anything is read). */
  const editor = async (request: FastifyRequest, reply: FastifyReply): Promise<AccountRow | null> => {
    const account = await signedIn(request, reply);
    if (account !== null && !mayModerate(account.role)) throw CONTRIBUTE_ERRORS.editorsOnly();
    return account;
  };

  const takenKind = (text: string | undefined): ContributionKind => {
    const kind = kindOf(text);
    if (kind === null) throw CONTRIBUTE_ERRORS.noSuchForm();
    return kind;
  };
  const preparing = new PictureProcess();
  scope.addHook('onClose', async () => preparing.close());
  const receivePicture = pictureUpload(deps, kit, { building: async (featureId) => labelOf(await feature(idOf(featureId))), slots: deps.uploads, preparing });

  scope.get(CONTRIBUTE_PATHS.contributeRoute, async (request, reply) => {
    const { featureId, kind: kindText } = request.params as Params;
    const kind = takenKind(kindText);
    const account = await signedIn(request, reply);
    if (account === null) return reply;
    const about = await feature(idOf(featureId));
    return kit.html(reply, 200, htmlContributeForm(pageAt(request), { kind, feature: labelOf(about), csrf: await kit.formCsrf(request, reply), fields: { title: '', body: '', url: '' }, problem: null }));
  });

  scope.post(CONTRIBUTE_PATHS.contributeRoute, async (request, reply) => {
    const { featureId, kind: kindText } = request.params as Params;
    const kind = takenKind(kindText);
    if (kind === 'image') return receivePicture(request, reply, featureId);
    await kit.checkForm(request);
    const account = await signedIn(request, reply);
    if (account === null) return reply;
    const about = await feature(idOf(featureId));
    const sent = formFields(request.body);
    const { fields, problems } = readFields(kind, sent);
    const problem = Object.values(problems)[0] ?? null;
    if (problem !== null) {
      return kit.html(reply, 400, htmlContributeForm(pageAt(request), { kind, feature: labelOf(about), csrf: await kit.formCsrf(request, reply), fields: sent, problem }));
    }
    await store.transact(sendContributionPlan({ accountId: account.id, kind, featureId: about.id, fields, now: Date.now() }));
    return kit.see(reply, request, CONTRIBUTE_PATHS.account);
  });

  scope.get(`${CONTRIBUTE_PATHS.reviewRoute}/picture`, async (request, reply) => {
    if ((await editor(request, reply)) === null) return reply;
    const id = idOf((request.params as Params).id);
    const found = id === null ? null : await store.transact(contributionPlan(id), 'read');
    const upload = found === null ? null : uploadOf(found);
    if (upload === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
    const kept = await store.transact(keptPicturePlan(upload, 'display'), 'read');
    if (kept === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
    return reply.type('image/jpeg').header('content-security-policy', "default-src 'none'; sandbox").send(kept.bytes);
  });

  scope.get(CONTRIBUTE_PATHS.queue, async (request, reply) => {
    if ((await editor(request, reply)) === null) return reply;
    const items = await withFeatures(store, await store.transact(queuePlan(QUEUE_PAGE), 'read'));
    return kit.html(reply, 200, htmlQueue(pageAt(request), items));
  });

  /** A contribution's review page: to editors only (a contributor's own are listed under /account/). */
  const review = async (request: FastifyRequest, reply: FastifyReply, status = 200, problem: string | null = null, sent?: Record<string, string>) => {
    const id = idOf((request.params as Params).id);
    const found = id === null ? null : await store.transact(contributionPlan(id), 'read');
    if (found === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
    const about = await feature(found.featureId).catch(() => null);
    return kit.html(reply, status, htmlReview(pageAt(request), { contribution: found, feature: about, csrf: await kit.formCsrf(request, reply), problem, fields: sent, seen: fieldsDigest(found.fields) }));
  };

  scope.get(CONTRIBUTE_PATHS.reviewRoute, async (request, reply) => ((await editor(request, reply)) === null ? reply : review(request, reply)));

  /** A decision's form: its csrf, an editor, the contribution it is about (null: answered already). */
  const deciding = async (request: FastifyRequest, reply: FastifyReply): Promise<{ account: AccountRow; found: ContributionRow } | null> => {
    await kit.checkForm(request);
    const account = await editor(request, reply);
    if (account === null) return null;
    const id = idOf((request.params as Params).id);
    const found = id === null ? null : await store.transact(contributionPlan(id), 'read');
    if (found === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
    return { account, found };
  };

  /** A decision that changed nothing: the review as it is now, saying why (409), or 404 when it is gone. */
  const refused = (request: FastifyRequest, reply: FastifyReply, refusal: Refusal) => {
    if (refusal.why === 'gone') throw CONTRIBUTE_ERRORS.noSuchContribution();
    return review(request, reply, 409, refusalText(refusal));
  };

  scope.post(`${CONTRIBUTE_PATHS.reviewRoute}/approve`, async (request, reply) => {
    const decision = await deciding(request, reply);
    if (decision === null) return reply;
    const { account, found } = decision;
    const sent = formFields(request.body);
    // The picture is the one sent: an editor corrects its words, never which file it is.
    const upload = uploadOf(found);
    const { fields, problems } = readFields(found.kind, upload === null ? sent : { ...sent, upload });
    const problem = Object.values(problems)[0] ?? null;
    if (problem !== null) return review(request, reply, 400, problem, sent);
    const edit = { fields, seen: field(request.body, 'seen') };
    if (field(request.body, 'action') === 'save') {
      const refusal = await store.transact(correctPlan(found.id, edit));
      return refusal === null ? kit.see(reply, request, CONTRIBUTE_PATHS.review(found.id)) : refused(request, reply, refusal);
    }
    const publication = publishChange(found.id, account.id, Date.now(), edit);
    const outcome = await store.applyChanges(publication);
    if (!outcome.ok) return review(request, reply, 409, `It cannot be published: ${outcome.problems.map((p) => p.message).join('; ')}`);
    const refusal = publication.refusal();
    if (refusal !== null) return refused(request, reply, refusal);
    if (outcome.version !== null) deps.published(outcome.version);
    const published = await store.transact(contributionPlan(found.id), 'read');
    if (published?.state !== 'published' || published.recordId === null) throw CONTRIBUTE_ERRORS.alreadyDecided();
    return kit.see(reply, request, SITE_PATHS.record(KIND_LISTS[published.kind], published.recordId));
  });

  scope.post(`${CONTRIBUTE_PATHS.reviewRoute}/reject`, async (request, reply) => {
    const decision = await deciding(request, reply);
    if (decision === null) return reply;
    const { account, found } = decision;
    const reason = field(request.body, 'reason').trim();
    if (reason === '' || [...reason].length > REASON_MAX) return review(request, reply, 400, `Say why it is not published, in at most ${REASON_MAX} characters: the contributor reads it.`);
    const refusal = await store.transact(rejectPlan(found.id, account.id, reason, Date.now(), field(request.body, 'seen')));
    return refusal === null ? kit.see(reply, request, CONTRIBUTE_PATHS.queue) : refused(request, reply, refusal);
  });

  const historyTarget = (params: Params): { list: OgcCollection; id: number } => {
    const list = SITE_COLLECTIONS.find((c) => c === params.list);
    const id = idOf(params.id);
    if (list === undefined || id === null) throw CONTRIBUTE_ERRORS.noSuchRecord();
    return { list, id };
  };

  scope.get(CONTRIBUTE_PATHS.historyRoute, async (request, reply) => {
    if ((await editor(request, reply)) === null) return reply;
    const { list, id } = historyTarget(request.params as Params);
    const changes = await store.transact(recordHistoryPlan(list, id), 'read');
    const current = (await askRecord(store, list, id)).row;
    return kit.html(reply, 200, htmlHistory(pageAt(request), { list, id, label: current === null ? null : recordLabel(list, current), changes, csrf: await kit.formCsrf(request, reply) }));
  });

  scope.post(CONTRIBUTE_PATHS.revertRoute, async (request, reply) => {
    await kit.checkForm(request);
    const account = await editor(request, reply);
    if (account === null) return reply;
    const { list, id } = historyTarget(request.params as Params);
    const changeId = idOf((request.params as Params).change);
    const change = changeId === null ? null : await store.transact(recordChangePlan(changeId), 'read');
    if (change === null || change.list !== list || change.recordId !== id) throw CONTRIBUTE_ERRORS.noSuchRecord();
    const outcome = await store.applyChanges(revertChange(change, account.id, Date.now()));
    if (!outcome.ok) throw CONTRIBUTE_ERRORS.cannotUndo(outcome.problems.map((p) => p.message).join('; '));
    if (outcome.version === null) throw CONTRIBUTE_ERRORS.cannotUndo('the record has changed since; undo the later change first');
    deps.published(outcome.version);
    return kit.see(reply, request, CONTRIBUTE_PATHS.history(list, id));
  });
}

/** What a decision that changed nothing tells the editor. */
function refusalText(refusal: Exclude<Refusal, { why: 'gone' }>): string {
  if (refusal.why === 'no-picture') return 'Its picture is not in the store (it was sent before pictures were kept there): it cannot be published. Reject it, and ask its contributor to send it again.';
  const { contribution: c } = refusal;
  if (refusal.why === 'stale') return 'Someone saved a correction while this page was open: nothing was changed. The contribution as it is now is below; read it, then decide again.';
  const when = c.decided === null ? '' : ` on ${new Date(c.decided).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  if (c.state === 'rejected') return `This was rejected already${when}: nothing was changed.`;
  return `This was published already${when}${c.state === 'withdrawn' ? ', and has been withdrawn since' : ''}: nothing was changed.`;
}

function labelOf(f: FeatureRow): FeatureLabel {
  return { id: f.id, label: featureName(f) };
}

function recordLabel(list: OgcCollection, row: object): string {
  if (list === 'features') return featureName(row as FeatureRow);
  return (row as { title: string }).title;
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

