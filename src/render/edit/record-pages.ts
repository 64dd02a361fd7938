// The editors' record pages (issue 47): a record's form (new, edit, after a refusal, after a
// conflict) and a removal's question, as page models for record-templates.ts.
import { FEATURE_TYPES } from '../../catalogue/format.js';
import type { CatalogueCollection } from '../../catalogue/collections.js';
import type { FormField, FormValues } from '../../editing/record-form.js';
import { RECORD_NOUNS } from '../../editing/field-words.js';
import { escapeText } from '../../pages/sanitise.js';
import { homeCrumb, page, type Crumb, type PageAt } from '../../pages/shell.js';
import { CONTRIBUTE_PATHS, EDIT_PATHS, SITE_COLLECTIONS, type EditList } from '../../site/paths.js';
import { recordHref } from '../site/record.js';
import { EDIT_RECORD_PAGES } from './record-templates.js';

/** What the form offers to choose from: the catalogue's sites and categories, by id. */
export interface Choices {
  sites: readonly { id: number; name: string }[];
  categories: readonly { id: number; name: string }[];
}

export interface RecordForm {
  list: EditList;
  /** null: a new record. */
  id: number | null;
  /** The record's name for people (null: new). */
  label: string | null;
  fields: readonly FormField[];
  values: FormValues;
  problems: ReadonlyMap<string, string>;
  csrf: string;
  /** The version the form is made from (empty for a new record). */
  seen: string;
  choices: Choices;
  /** The other change, field by field, when a save met one: theirs (saved) and this editor's. */
  conflict: readonly { label: string; theirs: string; yours: string }[] | null;
  /** The footprint's field as the map's enhancement renders it (render/edit/footprint-field.ts). */
  footprint: (text: string, problem: string | null) => string;
  /** The scripts and styles the footprint's map needs, as HTML (empty when not built). */
  assets: string;
  /** Just saved: the page says so. */
  saved: boolean;
}

const TYPE_WORDS: Readonly<Record<(typeof FEATURE_TYPES)[number], string>> = {
  WHITECHAPEL_BUILDING: 'A building', GREATER_WHITECHAPEL: 'An area', PLACE: 'A place', OPEN_SPACE: 'An open space',
};

const isCollection = (list: EditList): list is CatalogueCollection & EditList => SITE_COLLECTIONS.some((c) => c === list);

function crumbs(at: PageAt, form: Pick<RecordForm, 'list' | 'id' | 'label'>): Crumb[] {
  const crumbsOf: Crumb[] = [homeCrumb(at), { href: `${at.baseUrl}${EDIT_PATHS.recent}`, label: 'Recent changes' }];
  if (form.id !== null && isCollection(form.list)) crumbsOf.push({ href: recordHref(at, form.list, form.id), label: form.label ?? `${form.list} ${form.id}` });
  return crumbsOf;
}

/** The record's own links for an editor: its page, its history, its removal. */
function recordLinks(at: PageAt, list: EditList, id: number) {
  return [
    ...(isCollection(list) ? [{ href: recordHref(at, list, id), label: 'Its page' }] : []),
    { href: `${at.baseUrl}${CONTRIBUTE_PATHS.history(list, id)}`, label: 'Its history' },
    { href: `${at.baseUrl}${EDIT_PATHS.remove(list, id)}`, label: `Remove this ${RECORD_NOUNS[list]}` },
  ];
}

export function htmlRecordForm(at: PageAt, form: RecordForm): string {
  const noun = RECORD_NOUNS[form.list];
  const title = form.id === null ? `New ${noun}` : `Edit ${noun} ${form.id}${form.label === null ? '' : `: ${form.label}`}`;
  const fields = form.fields.map((field) => fieldModel(field, form));
  const geometry = fields.find((f) => f.input === 'footprint');
  return EDIT_RECORD_PAGES.render('record-form', {
    page: page(at, { title, heading: title, crumbs: crumbs(at, form), alternates: [], description: title, kind: 'editing' }),
    noun,
    links: form.id === null ? [] : recordLinks(at, form.list, form.id),
    conflict: form.conflict,
    saved: form.saved,
    problems: problemList(form),
    action: `${at.baseUrl}${form.id === null ? EDIT_PATHS.create(form.list) : EDIT_PATHS.record(form.list, form.id)}`,
    csrf: form.csrf,
    seen: form.seen,
    fields,
    footprint: geometry === undefined ? '' : form.footprint(geometry.value, geometry.problem),
    assets: geometry === undefined ? '' : form.assets,
    submit: form.id === null ? `Add the ${noun}` : 'Save',
  });
}

/** Every problem, linked to its field; those of no one field first. */
function problemList(form: RecordForm) {
  const labels = new Map(form.fields.map((f) => [f.key, f.label]));
  return [...form.problems].map(([key, text]) => {
    const label = labels.get(key);
    return label === undefined ? { href: null, label: '', text } : { href: `#${fieldId(key, form)}`, label, text };
  }).sort((a, b) => Number(a.href !== null) - Number(b.href !== null));
}

const fieldId = (key: string, form: RecordForm) => {
  const input = form.fields.find((f) => f.key === key)?.input;
  return input === 'footprint' ? 'geometry' : `field-${key}`;
};

function fieldModel(field: FormField, form: RecordForm) {
  const raw = form.values[field.key];
  const value = typeof raw === 'string' ? raw : '';
  const multiline = ['long-text', 'markup', 'tags', 'search-text'].includes(field.input);
  return {
    ...field,
    value,
    problem: form.problems.get(field.key) ?? null,
    multiline,
    rows: field.input === 'markup' ? 14 : 4,
    type: field.input === 'date' || field.input === 'optional-date' ? 'date' : 'text',
    inputmode: field.input === 'year' || field.input === 'building' ? 'numeric' : null,
    options: optionsOf(field, raw, form.choices),
  };
}

function optionsOf(field: FormField, raw: string | string[] | undefined, choices: Choices) {
  const chosen = new Set(Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]);
  const option = (value: string, label: string) => ({ value, label, checked: chosen.has(value) });
  switch (field.input) {
    case 'kind': return FEATURE_TYPES.map((t) => option(t, TYPE_WORDS[t]));
    case 'site': return [option('', 'None'), ...choices.sites.map((s) => option(String(s.id), s.name))];
    case 'categories': return choices.categories.map((c) => option(String(c.id), c.name));
    case 'published': return [option('yes', 'Published: shown to everyone'), option('no', 'Not published: kept, shown to no one')];
    case 'licence': return [option('copyright', 'Its author keeps the copyright'), option('open', "Under this site's licence")];
    default: return [];
  }
}

export interface RemoveQuestion {
  list: EditList;
  id: number;
  label: string;
  /** What goes with it, in words ("3 pictures"). */
  goes: readonly string[];
  csrf: string;
  seen: string;
  attached: string;
  problems: ReadonlyMap<string, string>;
}

export function htmlRemoveQuestion(at: PageAt, q: RemoveQuestion): string {
  const noun = RECORD_NOUNS[q.list];
  const title = `Remove ${noun} ${q.id}: ${q.label}`;
  const back = `${at.baseUrl}${EDIT_PATHS.record(q.list, q.id)}`;
  return EDIT_RECORD_PAGES.render('record-remove', {
    page: page(at, { title, heading: title, crumbs: crumbs(at, { list: q.list, id: q.id, label: q.label }), alternates: [], description: title, kind: 'editing' }),
    problems: [...q.problems].map(([, text]) => ({ href: null, label: '', text })),
    recordHref: isCollection(q.list) ? recordHref(at, q.list, q.id) : back,
    label: q.label, goes: q.goes, csrf: q.csrf, seen: q.seen, attached: q.attached, back,
    action: `${at.baseUrl}${EDIT_PATHS.remove(q.list, q.id)}`,
  });
}

/** The footprint's text field alone: what a page has when the map's script is not built (and what the script enhances). */
export function plainFootprintField(text: string, problem: string | null): string {
  const problemHtml = problem === null ? '' : `\n<p class="problem" id="problem-geometry">${escapeText(problem)}</p>`;
  return `<div class="footprint" data-footprint>
<label for="geometry">Footprint (GeoJSON MultiPolygon, longitude/latitude)</label>
<textarea id="geometry" name="geometry" rows="8" spellcheck="false" aria-describedby="hint-geometry${problem === null ? '' : ' problem-geometry'}"${problem === null ? '' : ' aria-invalid="true"'}>${escapeText(text)}</textarea>
<p class="hint muted" id="hint-geometry">${escapeText('Draw it on the map, or give it as GeoJSON: a Polygon or MultiPolygon of longitude, latitude positions, each ring closed.')}</p>${problemHtml}
</div>`;
}

