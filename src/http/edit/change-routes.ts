// A change file uploaded by an editor, its preview record by record, and its application as
// one change (issue 47); the latest changes across the catalogue; a record's history and its
// undo (history-routes.ts). A file is checked as `apply` checks it (changes/validate.ts), then
// judged by a dry run inside the store, which reads the records it touches as they are; its
// application compares those records with what the preview saw and changes nothing when they
// differ (a second click, another editor meanwhile): the new preview is shown instead.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Problem } from '../../catalogue/format.js';
import { CATALOGUE_LISTS, type ListName } from '../../catalogue/lists.js';
import type { ChangeSet } from '../../changes/format.js';
import { ChangeValidator } from '../../changes/validate.js';
import { REFERENCE_LISTS, referencesIn } from '../../editing/record-diff.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { pageAt } from '../../pages/request.js';
import { htmlChanges, type ChangesView, type Preview } from '../../render/edit/changes.js';
import { htmlRecent } from '../../render/edit/recent.js';
import { EDIT_PATHS } from '../../site/paths.js';
import { fileChange, labelsPlan, recentChangesPlan, type Before } from '../../store/contributions/change-plans.js';
import {
  CHANGE_FILE_MAX_RECORDS, changeFileMaxBytes, changeFileText, multipartLimits, readChangeForm, recordCount, sealHolds, sealOf, type ChangeForm,
} from './change-form.js';
import { registerHistoryRoutes, idOf, idsByList } from './history-routes.js';
import type { EditDesk } from './routes.js';

/** The latest changes page lists this many changes. */
export const RECENT_PAGE = 50;

interface RecentRoute { Querystring: { before?: string } }

/** What every handler here shares. */
interface ChangeDesk extends EditDesk {
  validator: ChangeValidator;
  maxBytes: number;
}

export async function registerChangeRoutes(scope: FastifyInstance, edit: EditDesk): Promise<void> {
  const limits = edit.deps.config.catalogueLimits;
  const desk: ChangeDesk = { ...edit, validator: new ChangeValidator(limits), maxBytes: changeFileMaxBytes(limits) };
  registerHistoryRoutes(scope, edit);
  scope.get<RecentRoute>(EDIT_PATHS.recent, (request, reply) => recent(desk, request, reply));
  scope.get(EDIT_PATHS.changes, async (request, reply) => changesPage(desk, request, reply, 200, {}));
  // The upload's own scope parses multipart (a file, or a previewed file carried back), within the change file's bound.
  await scope.register(async (files) => {
    await files.register(multipart, { limits: multipartLimits(desk.maxBytes) });
    files.post(EDIT_PATHS.changes, (request, reply) => receive(desk, request, reply));
  });
}

/** The latest changes with the labels of the records they touched, in one transaction. */
function* recentPagePlan(before: number | null) {
  const page = yield* recentChangesPlan(before, RECENT_PAGE);
  const labels = yield* labelsPlan(idsByList(page.changes.flatMap((c) => c.records.map((r) => ({ list: r.list, id: r.recordId })))));
  return { ...page, labels };
}

async function recent(desk: ChangeDesk, request: FastifyRequest<RecentRoute>, reply: FastifyReply) {
  const given = request.query.before;
  const before = given === undefined ? null : idOf(given);
  if (given !== undefined && before === null) throw CONTRIBUTE_ERRORS.noSuchEditPage();
  const page = await desk.deps.store.transact(recentPagePlan(before), 'read');
  return desk.kit.html(reply, 200, htmlRecent(pageAt(request), { ...page, csrf: await desk.kit.formCsrf(request, reply) }));
}

async function changesPage(desk: ChangeDesk, request: FastifyRequest, reply: FastifyReply, status: number, view: Partial<Omit<ChangesView, 'csrf' | 'maxBytes'>>) {
  const csrf = await desk.kit.formCsrf(request, reply);
  return desk.kit.html(reply, status, htmlChanges(pageAt(request), { text: '', problem: null, refused: null, preview: null, ...view, csrf, maxBytes: desk.maxBytes }));
}

/** A change file's form: csrf first (a multipart body is checked here, once read), then a preview, or an application. */
async function receive(desk: ChangeDesk, request: FastifyRequest, reply: FastifyReply) {
  const form = await readChangeForm(request, desk.maxBytes);
  await desk.kit.checkForm(request, form.fields.csrf ?? '');
  if (form.tooLarge) return changesPage(desk, request, reply, 413, { problem: tooLarge(desk) });
  return form.fields.action === 'apply' ? apply(desk, request, reply, form) : preview(desk, request, reply, form);
}

const tooLarge = (desk: ChangeDesk) => `A change file sent here is at most ${Math.round(desk.maxBytes / 1024).toLocaleString('en-GB')} KB: apply a larger one on the server (heritage-api apply).`;

type Checked = { ok: true; changes: ChangeSet } | { ok: false; problems: Problem[]; total: number };

function check(desk: ChangeDesk, bytes: Buffer): Checked {
  const checked = desk.validator.parseBytes(bytes);
  if (checked.ok && recordCount(checked.changes) > CHANGE_FILE_MAX_RECORDS) {
    return { ok: false, problems: [{ path: '$', message: `names ${recordCount(checked.changes).toLocaleString('en-GB')} records; a change file sent here names at most ${CHANGE_FILE_MAX_RECORDS.toLocaleString('en-GB')} (apply a larger one on the server: heritage-api apply)` }], total: 1 };
  }
  return checked;
}

async function preview(desk: ChangeDesk, request: FastifyRequest, reply: FastifyReply, form: ChangeForm) {
  const text = form.fields.text ?? '';
  const name = form.file?.name ?? 'pasted text';
  const bytes = form.file?.bytes ?? Buffer.from(text, 'utf8');
  const kept = form.file === null ? text : '';
  if (bytes.length === 0) return changesPage(desk, request, reply, 400, { problem: 'Choose a change file, or paste its text.' });
  if (bytes.length > desk.maxBytes) return changesPage(desk, request, reply, 413, { problem: tooLarge(desk) });
  const checked = check(desk, bytes);
  if (!checked.ok) return changesPage(desk, request, reply, 400, { text: kept, refused: { name, ...checked } });
  const previewed = await previewOf(desk, request, reply, name, checked.changes);
  if ('problems' in previewed) return changesPage(desk, request, reply, 400, { text: kept, refused: { name, ...previewed } });
  return changesPage(desk, request, reply, 200, { preview: previewed });
}

/** A dry run of the file inside the store (the records it touches read, its references judged), and the labels its preview names. */
async function previewOf(desk: ChangeDesk, request: FastifyRequest, reply: FastifyReply, name: string, changes: ChangeSet): Promise<Preview | { problems: Problem[]; total: number }> {
  const { store } = desk.deps;
  const planned = fileChange(changes, { editorId: desk.editor(request).id, now: Date.now(), what: '' }, null);
  const outcome = await store.applyChanges(planned, { dryRun: true });
  if (!outcome.ok) return { problems: outcome.problems, total: outcome.total };
  const before = planned.before();
  const seen = planned.seen();
  if (before === null || seen === null) throw new Error('a dry run of a change file read none of its records');
  const labels = await store.transact(labelsPlan(namedIds(changes, before)), 'read');
  const text = changeFileText(changes);
  const csrf = await desk.kit.formCsrf(request, reply);
  return { name, changes, before, labels, text, seen, seal: sealOf(csrf, { name, seen, text }) };
}

/** Every record a preview names: those the file touches and those their fields refer to, before and after. */
function namedIds(changes: ChangeSet, before: Before): Partial<Record<ListName, number[]>> {
  const entries: { list: ListName; id: number }[] = [];
  for (const list of CATALOGUE_LISTS) {
    const stored: ReadonlyMap<number, unknown> = before[list];
    entries.push(...[...stored.keys()].map((id) => ({ list, id })));
    const references = referencesIn(list, [...changes[list].put, ...before[list].values()]);
    for (const target of REFERENCE_LISTS) entries.push(...references[target].map((id) => ({ list: target, id })));
  }
  return idsByList(entries);
}

async function apply(desk: ChangeDesk, request: FastifyRequest, reply: FastifyReply, form: ChangeForm) {
  const carried = { name: form.fields.name ?? '', seen: form.fields.seen ?? '', text: form.fields.carried ?? '' };
  if (!sealHolds(form.fields.csrf ?? '', carried, form.fields.seal ?? '')) {
    return changesPage(desk, request, reply, 400, { problem: 'The file sent back is not the one previewed (it was changed on its way, or previewed in another session): nothing was changed. Send the file again.' });
  }
  const checked = check(desk, Buffer.from(carried.text, 'utf8'));
  if (!checked.ok) return changesPage(desk, request, reply, 400, { refused: { name: carried.name, ...checked } });
  const planned = fileChange(checked.changes, { editorId: desk.editor(request).id, now: Date.now(), what: `applied change file «${carried.name}»` }, carried.seen);
  const outcome = await desk.deps.store.applyChanges(planned);
  if (!outcome.ok) return changesPage(desk, request, reply, 409, { refused: { name: carried.name, problems: outcome.problems, total: outcome.total } });
  if (planned.stale()) {
    const again = await previewOf(desk, request, reply, carried.name, checked.changes);
    const problem = 'The catalogue has changed since this preview, in records this file touches: nothing was changed. Below is what it would change now.';
    if ('problems' in again) return changesPage(desk, request, reply, 409, { problem, refused: { name: carried.name, ...again } });
    return changesPage(desk, request, reply, 409, { problem, preview: again });
  }
  if (outcome.version !== null) desk.deps.published(outcome.version);
  return desk.kit.see(reply, request, EDIT_PATHS.recent);
}
