// A record's form for editors (issue 47): `GET/POST /edit/{list}/{id}` edits it, `…/new` adds
// one, `…/{id}/delete` asks and removes. A save is read and checked as a change file of one
// record (editing/record-form.ts), then applied as one planned change of the store
// (store/editing/edit-plans.ts): one new catalogue version, in the history, undoable. A
// refused save answers the form again with what was typed and each problem at its field.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import type { CatalogueRecord } from '../../catalogue/lists.js';
import { CONTRIBUTE_ERRORS } from '../../errors.js';
import { blankValues, checkRecord, formFields, problemsByField, readForm, recordValues, type FormValues, type Names } from '../../editing/record-form.js';
import { pageAt } from '../../pages/request.js';
import { footprintAssets, footprintField, footprintHead, footprintPageHeaders } from '../../render/edit/footprint-field.js';
import { htmlRecordForm, htmlRemoveQuestion, type Choices, type RecordForm } from '../../render/edit/record-pages.js';
import { CONTRIBUTE_PATHS, EDIT_LISTS, EDIT_PATHS, type EditList } from '../../site/paths.js';
import { storedRecordPlan } from '../../store/contributions/contribution-plans.js';
import { ATTACHED_LISTS, attachmentsDigest, attachmentsPlan, recordVersion, removeChange, saveChange, type Attachments, type EditRefusal } from '../../store/editing/edit-plans.js';
import { readRows, num, text } from '../../store/rows.js';
import type { EditDesk } from './routes.js';

interface RecordRoute { Params: { list: string; id: string }; Querystring: { feature?: string; saved?: string } }

/** The most sites and categories a form offers (a catalogue has tens). */
const CHOICES_MAX = 2_000;
/** A placeholder for the record's check: the save sets the real id and author. */
const PLACEHOLDER_ID = 1;

export function registerRecordRoutes(scope: FastifyInstance, desk: EditDesk): void {
  scope.get<RecordRoute>(EDIT_PATHS.recordRoute, (request, reply) => showForm(desk, request, reply));
  scope.post<RecordRoute>(EDIT_PATHS.recordRoute, (request, reply) => save(desk, request, reply));
  scope.get<RecordRoute>(EDIT_PATHS.removeRoute, (request, reply) => askRemoval(desk, request, reply));
  scope.post<RecordRoute>(EDIT_PATHS.removeRoute, (request, reply) => remove(desk, request, reply));
}

/** The list and id a path names (null id: `new`), or a 404. */
function target(params: RecordRoute['Params'], allowNew: boolean): { list: EditList; id: number | null } {
  const list = EDIT_LISTS.find((l) => l === params.list);
  if (list !== undefined && allowNew && params.id === 'new') return { list, id: null };
  if (list === undefined || !/^[1-9]\d{0,15}$/.test(params.id)) throw CONTRIBUTE_ERRORS.noSuchEditPage();
  return { list, id: Number(params.id) };
}

async function stored(desk: EditDesk, list: EditList, id: number): Promise<CatalogueRecord> {
  const record = await desk.deps.store.read((d) => storedRecordPlan(list, id, d));
  if (record === null) throw CONTRIBUTE_ERRORS.noSuchRecord();
  return record;
}

async function choices(desk: EditDesk): Promise<Choices> {
  const named = (table: 'sites' | 'categories') => desk.deps.store.read(function* () {
    return readRows(yield { sql: `SELECT id, name FROM ${table} ORDER BY name, id LIMIT ${CHOICES_MAX}`, params: [] }, (r) => ({ id: num(r.id), name: text(r.name) }));
  });
  return { sites: await named('sites'), categories: await named('categories') };
}

async function authorNames(desk: EditDesk, record: CatalogueRecord | null): Promise<Names> {
  const id = record !== null && 'author' in record ? record.author : null;
  const rows = id === null ? [] : await desk.deps.store.read(function* () {
    return readRows(yield { sql: 'SELECT id, username FROM authors WHERE id = $1', params: [id] }, (r) => ({ id: num(r.id), username: text(r.username) }));
  });
  return { author: (wanted) => rows.find((r) => r.id === wanted)?.username ?? null };
}

/** A record's name for people: a building's name or address, another's title or name. */
function labelOf(record: CatalogueRecord): string {
  const given: Readonly<Record<string, unknown>> = record;
  for (const key of [F.name, F.address, 'title', 'name']) {
    const value = given[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return `${record.id}`;
}

const today = () => new Date().toISOString().slice(0, 10);

type FormState = Pick<RecordForm, 'list' | 'id' | 'label' | 'values' | 'problems' | 'seen' | 'conflict' | 'saved'>;

async function answerForm(desk: EditDesk, request: FastifyRequest, reply: FastifyReply, status: number, state: FormState) {
  const form: RecordForm = {
    ...state, fields: formFields(state.list), csrf: await desk.kit.formCsrf(request, reply), choices: await choices(desk),
    footprint: footprintField, assets: footprintHead(footprintAssets(request.baseUrl)),
  };
  // A building's form draws its footprint on a map: its script, its worker and the tiles are let in.
  if (formFields(state.list).some((f) => f.input === 'footprint')) reply.headers(footprintPageHeaders(desk.deps.config.basemapUrl));
  return desk.kit.html(reply, status, htmlRecordForm(pageAt(request), form));
}

async function showForm(desk: EditDesk, request: FastifyRequest<RecordRoute>, reply: FastifyReply) {
  const { list, id } = target(request.params, true);
  if (id === null) {
    const values = blankValues(list, today());
    const about = request.query.feature ?? '';
    if ('feature' in values && /^[1-9]\d{0,15}$/.test(about)) values['feature'] = about;
    return answerForm(desk, request, reply, 200, { list, id, label: null, values, problems: new Map(), seen: '', conflict: null, saved: false });
  }
  const record = await stored(desk, list, id);
  const values = recordValues(list, record, await authorNames(desk, record));
  const saved = request.query.saved !== undefined;
  return answerForm(desk, request, reply, 200, { list, id, label: labelOf(record), values, problems: new Map(), seen: recordVersion(record), conflict: null, saved });
}

/** The form's fields as sent: text, or the ids ticked. */
function sentValues(list: EditList, body: unknown): FormValues {
  const values: FormValues = {};
  const given = typeof body === 'object' && body !== null ? body : {};
  for (const { key } of formFields(list)) {
    const value: unknown = Reflect.get(given, key);
    if (typeof value === 'string') values[key] = value;
    else if (Array.isArray(value)) values[key] = value.filter((v): v is string => typeof v === 'string');
  }
  return values;
}

const sentText = (body: unknown, name: string): string => {
  const value: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
  return typeof value === 'string' ? value : '';
};

async function save(desk: EditDesk, request: FastifyRequest<RecordRoute>, reply: FastifyReply) {
  const { list, id } = target(request.params, true);
  const editor = desk.editor(request);
  const values = sentValues(list, request.body);
  const seen = sentText(request.body, 'seen');
  const refuse = async (problems: ReadonlyMap<string, string>) => {
    const now = id === null ? null : await desk.deps.store.read((d) => storedRecordPlan(list, id, d));
    return answerForm(desk, request, reply, 400, { list, id, label: now === null ? null : labelOf(now), values, problems, seen, conflict: null, saved: false });
  };
  const read = readForm(list, id ?? PLACEHOLDER_ID, values, today());
  if (read.authorName !== null) read.record['author'] = PLACEHOLDER_ID;
  const checked = checkRecord(list, read.record);
  if (read.problems.size > 0 || 'problems' in checked) return refuse(mergeProblems(read.problems, 'problems' in checked ? checked.problems : new Map()));
  const record = checked.changes[list].put[0];
  if (record === undefined) throw new Error('a checked record of one put holds none');
  const change = saveChange({ list, id, record, authorName: read.authorName, seen, editorId: editor.id, now: Date.now() });
  const outcome = await desk.deps.store.applyChanges(change);
  if (!outcome.ok) return refuse(problemsByField(list, outcome.problems));
  const refusal = change.refusal();
  if (refusal !== null) return conflict(desk, request, reply, { list, id, values }, refusal);
  if (outcome.version !== null) desk.deps.published(outcome.version);
  const savedId = change.recordId();
  if (savedId === null) throw new Error('a save applied without its record\'s id');
  return desk.kit.see(reply, request, `${EDIT_PATHS.record(list, savedId)}?saved=${outcome.version ?? 'unchanged'}`);
}

/** Problems of the form's own reading first; the record's check says nothing more of a field already refused, nor of what is missing because of it. */
function mergeProblems(read: ReadonlyMap<string, string>, checked: ReadonlyMap<string, string>): Map<string, string> {
  const merged = new Map(read);
  for (const [key, text] of checked) if (!merged.has(key) && !(read.size > 0 && key === '')) merged.set(key, text);
  return merged;
}

/** A save over a newer version: the record as it is now beside what this editor wrote, the form holding the latter. */
async function conflict(desk: EditDesk, request: FastifyRequest, reply: FastifyReply, mine: { list: EditList; id: number | null; values: FormValues }, refusal: EditRefusal) {
  if (refusal.why === 'gone' || mine.id === null) throw CONTRIBUTE_ERRORS.noSuchRecord();
  const theirs = recordValues(mine.list, refusal.current, await authorNames(desk, refusal.current));
  const shown = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v ?? '');
  const rows = formFields(mine.list).map((f) => ({ label: f.label, theirs: shown(theirs[f.key]), yours: shown(mine.values[f.key]) }));
  return answerForm(desk, request, reply, 409, {
    list: mine.list, id: mine.id, label: labelOf(refusal.current), values: mine.values, problems: new Map(), seen: recordVersion(refusal.current),
    conflict: rows.filter((r) => r.theirs !== r.yours), saved: false,
  });
}

const ATTACHMENT_WORDS: Readonly<Record<keyof Attachments, [string, string]>> = {
  images: ['picture', 'pictures'], documents: ['piece of writing', 'pieces of writing'], media: ['video link', 'video links'],
};

function goesWith(attached: Attachments | null): string[] {
  if (attached === null) return [];
  return ATTACHED_LISTS.flatMap((list) => {
    const n = attached[list].length;
    const [one, many] = ATTACHMENT_WORDS[list];
    return n === 0 ? [] : [`${n} ${n === 1 ? one : many}`];
  });
}

async function removalPage(desk: EditDesk, request: FastifyRequest, reply: FastifyReply, status: number, list: EditList, id: number, problems: ReadonlyMap<string, string>) {
  const record = await stored(desk, list, id);
  const attached = list === 'features' ? await desk.deps.store.read(() => attachmentsPlan(id)) : null;
  return desk.kit.html(reply, status, htmlRemoveQuestion(pageAt(request), {
    list, id, label: labelOf(record), goes: goesWith(attached), csrf: await desk.kit.formCsrf(request, reply), seen: recordVersion(record),
    attached: attached === null ? '' : attachmentsDigest(attached), problems,
  }));
}

async function askRemoval(desk: EditDesk, request: FastifyRequest<RecordRoute>, reply: FastifyReply) {
  const { list, id } = target(request.params, false);
  if (id === null) throw CONTRIBUTE_ERRORS.noSuchEditPage();
  return removalPage(desk, request, reply, 200, list, id, new Map());
}

async function remove(desk: EditDesk, request: FastifyRequest<RecordRoute>, reply: FastifyReply) {
  const { list, id } = target(request.params, false);
  if (id === null) throw CONTRIBUTE_ERRORS.noSuchEditPage();
  const change = removeChange({ list, id, seen: sentText(request.body, 'seen'), attached: sentText(request.body, 'attached'), editorId: desk.editor(request).id, now: Date.now() });
  const outcome = await desk.deps.store.applyChanges(change);
  if (!outcome.ok) return removalPage(desk, request, reply, 409, list, id, new Map(outcome.problems.map((p, i) => [String(i), `It cannot be removed: ${p.message}.`])));
  const refusal = change.refusal();
  if (refusal?.why === 'gone') throw CONTRIBUTE_ERRORS.noSuchRecord();
  if (refusal !== null || change.attachmentsNow() !== null) {
    return removalPage(desk, request, reply, 409, list, id, new Map([['', 'It was changed while this page was open, or what is attached to it was: nothing was removed. Read the question again.']]));
  }
  if (outcome.version !== null) desk.deps.published(outcome.version);
  return desk.kit.see(reply, request, CONTRIBUTE_PATHS.history(list, id));
}
