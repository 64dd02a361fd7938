// A record's history and the undo of one of its changes (issue 47), for editors: registered in
// the back office's scope (routes.ts), so the editors' guard has refused anyone else before
// anything is read, and the undo's csrf is checked before its handler runs. An undo takes back
// every record of the change at once, in one new version, or refuses saying which record
// has changed since.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CATALOGUE_LISTS, type CatalogueRecord, type ListName } from '../../catalogue/lists.js';
import { LIST_WORDS } from '../../editing/field-words.js';
import { REFERENCE_LISTS, recordLabel, referencesIn } from '../../editing/record-diff.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { pageAt } from '../../pages/request.js';
import { htmlHistory, type HistoryView } from '../../render/edit/history.js';
import { CONTRIBUTE_PATHS } from '../../site/paths.js';
import { companionsPlan, labelsPlan, storedRecordsPlan, undoChange, type Labels, type TouchedRecord } from '../../store/contributions/change-plans.js';
import { changeRowsPlan, recordChangePlan, recordHistoryPlan } from '../../store/contributions/contribution-plans.js';
import type { Plan } from '../../store/read-plans.js';
import type { EditDesk } from './routes.js';

/** A history page shows at most this many changes, the newest. */
export const HISTORY_SHOWN = 50;

interface RecordRoute { Params: { list: string; id: string } }
interface RevertRoute { Params: { list: string; id: string; change: string } }

export const idOf = (text: string | undefined): number | null => (text !== undefined && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null);

export function registerHistoryRoutes(scope: FastifyInstance, desk: EditDesk): void {
  scope.get<RecordRoute>(CONTRIBUTE_PATHS.historyRoute, (request, reply) => history(desk, request, reply));
  scope.post<RevertRoute>(CONTRIBUTE_PATHS.revertRoute, (request, reply) => revert(desk, request, reply));
}

/** Any list of the catalogue has a history (an author made by an approval too). */
function target(params: RecordRoute['Params']): { list: ListName; id: number } {
  const list = CATALOGUE_LISTS.find((l) => l === params.list);
  const id = idOf(params.id);
  if (list === undefined || id === null) throw CONTRIBUTE_ERRORS.noSuchRecord();
  return { list, id };
}

/** Record numbers by list, for labelsPlan. */
export function idsByList(entries: Iterable<{ list: ListName; id: number }>): Partial<Record<ListName, number[]>> {
  const ids: Partial<Record<ListName, number[]>> = {};
  for (const { list, id } of entries) (ids[list] ??= []).push(id);
  return ids;
}

/** Everything a history page shows, read in one transaction. */
function* historyPagePlan(list: ListName, id: number): Plan<Omit<HistoryView, 'csrf' | 'problem'>> {
  const found = yield* recordHistoryPlan(list, id, HISTORY_SHOWN + 1);
  const changes = found.slice(0, HISTORY_SHOWN);
  const current = (yield* storedRecordsPlan(list, [id])).get(id) ?? null;
  const companions = yield* companionsPlan(changes.flatMap((c) => (c.version === null ? [] : [c.version])));
  const touched: TouchedRecord[] = [...companions.values()].flatMap((c) => c.records);
  const references = referencesIn(list, [current, ...changes.flatMap((c) => [c.before, c.after])]);
  const labels: Labels = yield* labelsPlan(idsByList([
    { list, id }, ...touched.map((t) => ({ list: t.list, id: t.recordId })),
    ...REFERENCE_LISTS.flatMap((l) => references[l].map((ref) => ({ list: l, id: ref }))),
  ]));
  return { list, id, current, changes, more: found.length > HISTORY_SHOWN, companions, labels };
}

async function history(desk: EditDesk, request: FastifyRequest<RecordRoute>, reply: FastifyReply, status = 200, problem: string | null = null) {
  const { list, id } = target(request.params);
  const view = await desk.deps.store.transact(historyPagePlan(list, id), 'read');
  return desk.kit.html(reply, status, htmlHistory(pageAt(request), { ...view, csrf: await desk.kit.formCsrf(request, reply), problem }));
}

async function revert(desk: EditDesk, request: FastifyRequest<RevertRoute>, reply: FastifyReply) {
  const { store } = desk.deps;
  const account = desk.editor(request);
  const { list, id } = target(request.params);
  const changeId = idOf(request.params.change);
  const change = changeId === null ? null : await store.transact(recordChangePlan(changeId), 'read');
  if (change === null || change.list !== list || change.recordId !== id) throw CONTRIBUTE_ERRORS.noSuchRecord();
  const rows = await store.transact(changeRowsPlan(change), 'read');
  const undo = undoChange(rows, account.id, Date.now());
  const outcome = await store.applyChanges(undo);
  const refused = (why: string) => history(desk, request, reply, 409, `This change cannot be undone: ${why}. Nothing was changed.`);
  if (!outcome.ok) return refused(outcome.problems.map((p) => p.message).join('; '));
  const moved = undo.refusal();
  if (moved !== null) return refused(await changedSince(desk, moved.list, moved.recordId, rows.find((r) => r.list === moved.list && r.recordId === moved.recordId)?.after ?? null));
  if (outcome.version === null) return refused('its records are already as they were before it');
  desk.deps.published(outcome.version);
  return desk.kit.see(reply, request, CONTRIBUTE_PATHS.history(list, id));
}

/** "the building Toynbee Hall (number 12) has changed since; undo its later change first" */
async function changedSince(desk: EditDesk, list: ListName, id: number, known: CatalogueRecord | null): Promise<string> {
  const labels = await desk.deps.store.transact(labelsPlan({ [list]: [id] }), 'read');
  const label = labels[list].get(id)?.label ?? (known === null ? `${LIST_WORDS[list].one} ${id}` : recordLabel(list, known));
  return `the ${LIST_WORDS[list].one} ${label} (number ${id}) has changed since; undo its later change first`;
}
