// Contributions and the editors' work (issue 37): a building's forms, the queue, a review
// (the page as it will be published, the fields to correct, approve or reject), and a
// record's history with its undo. Who may do what is checked before anything is read: a
// contributor asking for the queue or another's contribution gets 403, never its data.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mayModerate } from '../../accounts/roles.js';
import fs from 'node:fs/promises';
import { CONTRIBUTION_KINDS, KIND_LISTS, readFields, type ContributionKind, type ImageFields } from '../../contributions/kinds.js';
import { PICTURE_MAX_BYTES, PictureFiles } from '../../contributions/pictures.js';
import { drainBody } from './drain.js';
import { PictureProcess } from '../../contributions/picture-process.js';
import type { Config } from '../../config.js';
import { Gate } from '../../work/gate.js';
import { ApiError, CONTRIBUTE_ERRORS } from '../../errors.js';
import type { OgcCollection } from '../../ogc/properties.js';
import {
  htmlContributeForm, htmlHistory, htmlQueue, htmlReview, type ContributionItem, type FeatureLabel,
} from '../../render/contribute/contributions.js';
import { featureName } from '../../render/site/record.js';
import { CONTRIBUTE_PATHS, SITE_COLLECTIONS, SITE_PATHS } from '../../site/paths.js';
import type { AccountRow } from '../../store/account-plans.js';
import {
  contributionPlan, correctPlan, publishChange, queuePlan, recordChangePlan, recordHistoryPlan, rejectPlan, revertChange, sendContributionPlan,
  type ContributionRow,
} from '../../store/contribution-plans.js';
import type { FeatureRow } from '../../store/store.js';
import { pageAt } from '../site/routes.js';
import { field, type ContributeDeps, type FormKit } from './routes.js';

/** A picture's whole form at most: the picture and its few fields (routes.ts's multipart limits). */
const UPLOAD_FORM_MAX_BYTES = PICTURE_MAX_BYTES + 256 * 1024;
/** A refused upload's rest is read for at most this long (drain.ts). */
const DRAIN_MS = 10_000;

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
    const found = id === null ? null : (await store.get('features', id)).row;
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

  const pictures = picturesOf(deps.config);
  /** A kind this site takes: pictures only with UPLOADS_DIR and MEDIA_ROOT. */
  const takenKind = (text: string | undefined): ContributionKind => {
    const kind = kindOf(text);
    if (kind === null || (kind === 'image' && pictures === null)) throw CONTRIBUTE_ERRORS.noSuchForm();
    return kind;
  };

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
    if (kind === 'image') {
      return uploads!.run(() => receivePicture(request, reply, featureId)).catch(async (error: unknown) => {
        await drainBody(request.raw, UPLOAD_FORM_MAX_BYTES, DRAIN_MS);
        throw error;
      });
    }
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

  /** At most two uploads received and processed at once (each up to 20 MB in memory), four more waiting, the rest refused (503). */
  const uploads = pictures === null ? null : new Gate('picture uploads', { running: 2, waiting: 4, waitMs: 30_000 });
  // Decoded and encoded in a process of their own, at the lowest priority (picture-process.ts).
  const preparing = pictures === null ? null : new PictureProcess();
  scope.addHook('onClose', async () => preparing?.close());
  const receivePicture = async (request: FastifyRequest, reply: FastifyReply, featureId: string | undefined) => {
    if (!request.isMultipart()) throw CONTRIBUTE_ERRORS.notMultipart();
    const sent: Record<string, string> = {};
    let bytes: Buffer | null = null;
    let checked = false;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          // The form's csrf comes before its file (the page puts it first): a forged form is refused before its bytes are taken in.
          if (!checked) await kit.checkForm(request, sent.csrf ?? '');
          checked = true;
          // The sender's file name and type are never read: the bytes alone say what it is.
          if (part.fieldname === 'file' && bytes === null) bytes = await part.toBuffer();
          else part.file.resume();
        } else if (typeof part.value === 'string') sent[part.fieldname] = part.value;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw CONTRIBUTE_ERRORS.pictureTooLarge();
      throw CONTRIBUTE_ERRORS.badUpload();
    }
    if (!checked) await kit.checkForm(request, sent.csrf ?? '');
    const account = await signedIn(request, reply);
    if (account === null) return reply;
    const about = await feature(idOf(featureId));
    const again = async (status: number, problem: string) =>
      kit.html(reply, status, htmlContributeForm(pageAt(request), { kind: 'image', feature: labelOf(about), csrf: await kit.formCsrf(request, reply), fields: { ...sent, upload: '' }, problem }));
    const { fields, problems } = readFields('image', { ...sent, upload: 'pending' });
    const problem = Object.values(problems)[0] ?? (bytes === null || bytes.length === 0 ? 'Choose a picture to send.' : null);
    if (problem !== null) return again(400, problem);
    const prepared = await preparing!.prepare(bytes!).catch(() => null);
    if (prepared === null) return again(503, 'The picture could not be prepared just now: try again in a minute, or send a smaller one.');
    if (!prepared.ok) return again(prepared.status, prepared.problem);
    const upload = await pictures!.keep(bytes!, prepared.picture);
    await store.transact(sendContributionPlan({ accountId: account.id, kind: 'image', featureId: about.id, fields: { ...fields, upload }, now: Date.now() }));
    return kit.see(reply, request, CONTRIBUTE_PATHS.account);
  };

  scope.get(`${CONTRIBUTE_PATHS.reviewRoute}/picture`, async (request, reply) => {
    if ((await editor(request, reply)) === null) return reply;
    const id = idOf((request.params as Params).id);
    const found = id === null ? null : await store.transact(contributionPlan(id), 'read');
    if (found === null || found.kind !== 'image' || pictures === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
    const file = await fs.readFile(pictures.pendingPath((found.fields as ImageFields).upload)).catch(() => null);
    if (file === null) throw CONTRIBUTE_ERRORS.noSuchContribution();
    return reply.type('image/jpeg').header('content-security-policy', "default-src 'none'; sandbox").send(file);
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
    return kit.html(reply, status, htmlReview(pageAt(request), { contribution: found, feature: about, csrf: await kit.formCsrf(request, reply), problem, fields: sent }));
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

  scope.post(`${CONTRIBUTE_PATHS.reviewRoute}/approve`, async (request, reply) => {
    const decision = await deciding(request, reply);
    if (decision === null) return reply;
    const { account, found } = decision;
    if (found.state !== 'pending') throw CONTRIBUTE_ERRORS.alreadyDecided();
    const sent = formFields(request.body);
    // The picture is the one sent: an editor corrects its words, never which file it is.
    const { fields, problems } = readFields(found.kind, found.kind === 'image' ? { ...sent, upload: (found.fields as ImageFields).upload } : sent);
    const problem = Object.values(problems)[0] ?? null;
    if (problem !== null) return review(request, reply, 400, problem, sent);
    if (JSON.stringify(fields) !== JSON.stringify(found.fields) && !(await store.transact(correctPlan(found.id, fields)))) throw CONTRIBUTE_ERRORS.alreadyDecided();
    if (field(request.body, 'action') === 'save') return kit.see(reply, request, CONTRIBUTE_PATHS.review(found.id));
    const upload = found.kind === 'image' ? (fields as ImageFields).upload : null;
    if (upload !== null && pictures === null) return review(request, reply, 409, 'Pictures are not taken on this server now (UPLOADS_DIR and MEDIA_ROOT are not both set): it cannot be published here.');
    // The files first: once the record is published, its picture must be there to serve.
    if (upload !== null) await pictures!.publish(upload);
    const outcome = await store.applyChanges(publishChange(found.id, account.id, Date.now()));
    if (!outcome.ok || outcome.version === null) {
      if (upload !== null) await pictures!.unpublish(upload);
      if (!outcome.ok) return review(request, reply, 409, `It cannot be published: ${outcome.problems.map((p) => p.message).join('; ')}`);
    }
    if (outcome.ok && outcome.version !== null) deps.published(outcome.version);
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
    if (!(await store.transact(rejectPlan(found.id, account.id, reason, Date.now())))) throw CONTRIBUTE_ERRORS.alreadyDecided();
    return kit.see(reply, request, CONTRIBUTE_PATHS.queue);
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
    const current = (await store.get(list, id)).row;
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

/** Pictures are taken only where they can wait apart and then be served: UPLOADS_DIR and MEDIA_ROOT. */
function picturesOf(config: Pick<Config, 'uploadsDir' | 'mediaRoot'>): PictureFiles | null {
  return config.uploadsDir !== null && config.mediaRoot !== null ? new PictureFiles(config.uploadsDir, config.mediaRoot) : null;
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
    const row = (await store.get('features', id)).row;
    labels.set(id, row === null ? null : featureName(row));
  }
  return rows.map((contribution) => ({ contribution, featureLabel: labels.get(contribution.featureId) ?? null }));
}

