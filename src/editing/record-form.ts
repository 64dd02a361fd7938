// A catalogue record as an editor's form (issue 47): which fields each list's form shows, in
// the catalogue file's order, how a record becomes the form's text and the form's text a
// record again. The record a form makes is checked exactly as a change file's (the catalogue
// schema, its limits, a footprint's rings: changes/validate.ts), then by the store against the
// catalogue (references); each problem comes back to the field it is about.
import { footprintWarnings } from '../catalogue/footprint.js';
import { DEFAULT_CATALOGUE_LIMITS } from '../catalogue/limits.js';
import { formatPath } from '../catalogue/paths.js';
import type { CatalogueRecord } from '../catalogue/lists.js';
import { FEATURE_TYPES, defaultSearchStr, type Feature, type Problem } from '../catalogue/format.js';
import { CHANGES_FORMAT, type ChangeSet } from '../changes/format.js';
import { ChangeValidator } from '../changes/validate.js';
import { formatFootprint } from './footprint-text.js';
import type { EditList } from '../site/paths.js';

/** How a field is typed in: each kind its own input and its own reading of the text. */
export type InputKind =
  | 'text' | 'optional-text' | 'long-text' | 'markup' | 'path' | 'year' | 'kind' | 'site' | 'categories'
  | 'building' | 'author' | 'date' | 'optional-date' | 'today' | 'published' | 'licence' | 'tags' | 'search-text' | 'footprint';

export interface FormField {
  key: string;
  label: string;
  input: InputKind;
  /** Said beside the field before anything is refused: its rule. */
  hint: string | null;
}

const HINTS: Partial<Record<InputKind, string>> = {
  'optional-text': 'Leave empty when it has none.',
  year: `A year from 1 to this year, or empty when unknown.`,
  path: 'A path under the media folder, such as images/1234.jpg.',
  'optional-date': 'YYYY-MM-DD, or empty when unknown.',
  date: 'YYYY-MM-DD.',
  today: 'Set to today when saved.',
  tags: 'One per line.',
  'search-text': 'Left empty, it is made from the number, name, street and address.',
  building: 'The number of the building it is about.',
  author: 'The name of the author it is credited to; a new name makes a new author.',
  markup: 'HTML: paragraphs, links and emphasis are kept; anything else is removed when shown.',
  footprint: 'Draw it on the map, or give it as GeoJSON: a Polygon or MultiPolygon of longitude, latitude positions, each ring closed.',
};

/** Each list's fields as a form shows them: the input a field is typed in, and what it is called for people (null: not a field of the form). */
type Inputs<L extends EditList> = Readonly<Record<keyof CatalogueRecord<L> & string, readonly [InputKind, string] | null>>;

const INPUTS: { readonly [L in EditList]: Inputs<L> } = {
  categories: { id: null, name: ['text', 'Name'], description: ['long-text', 'Description'], thumbnail: ['path', 'Thumbnail'] },
  sites: { id: null, name: ['text', 'Name'] },
  features: {
    id: null, feature_type: ['kind', 'Kind'], b_number: ['optional-text', 'Number'], b_name: ['optional-text', 'Name'], street: ['optional-text', 'Street'],
    postcode: ['text', 'Postcode'], address: ['text', 'Address'], current: ['year', 'Year'], site: ['site', 'Site'], categories: ['categories', 'Categories'],
    tags: ['tags', 'Tags'], search_str: ['search-text', 'Search text'], geometry: ['footprint', 'Footprint'],
  },
  images: {
    id: null, feature: ['building', 'Building'], author: ['author', 'Credit'], title: ['text', 'Title'], file: ['path', 'File'], description: ['long-text', 'Description'],
    copyright: ['licence', 'Licence'], created: ['optional-date', 'Date'], published: ['published', 'Published'],
  },
  documents: {
    id: null, feature: ['building', 'Building'], author: ['author', 'Author'], title: ['text', 'Title'], body: ['markup', 'Text'], created: ['date', 'Written'],
    last_edited: ['today', 'Last edited'], published: ['published', 'Published'],
  },
  media: { id: null, feature: ['building', 'Building'], author: ['author', 'Credit'], title: ['text', 'Title'], url: ['text', 'Video address'], published: ['published', 'Published'] },
};

/** A list's form, field by field in the file's order (the id is the address, never a field). */
export function formFields(list: EditList): FormField[] {
  const inputs: Readonly<Record<string, readonly [InputKind, string] | null>> = INPUTS[list];
  return Object.entries(inputs).flatMap(([key, declared]) =>
    declared === null ? [] : [{ key, label: declared[1], input: declared[0], hint: HINTS[declared[0]] ?? null }]);
}

/** What a field is called for people (a field the form does not show: its key). */
export const fieldLabel = (list: EditList, key: string): string => formFields(list).find((f) => f.key === key)?.label ?? key;

/** A form's values as text, by field key (categories: the ids ticked). */
export type FormValues = Record<string, string | string[]>;

/** The names a form shows its references by: a record's author id → its name, a building's name. */
export interface Names {
  author(id: number): string | null;
}

/** A stored record as its form's values. */
export function recordValues(list: EditList, record: CatalogueRecord, names: Names): FormValues {
  const values: FormValues = {};
  const given: Readonly<Record<string, unknown>> = record;
  for (const field of formFields(list)) values[field.key] = valueText(field.input, given[field.key], record, names);
  return values;
}

function valueText(input: InputKind, value: unknown, record: CatalogueRecord, names: Names): string | string[] {
  if (value === null || value === undefined) return '';
  if (input === 'categories' && Array.isArray(value)) return value.map(String);
  if (input === 'tags' && Array.isArray(value)) return value.join('\n');
  if (input === 'author' && typeof value === 'number') return names.author(value) ?? String(value);
  if (input === 'published') return value === true ? 'yes' : 'no';
  if (input === 'licence') return value === true ? 'copyright' : 'open';
  if (input === 'footprint' && isFeature(record)) return formatFootprint(record.geometry.coordinates, true);
  if (input === 'search-text' && 'geometry' in record && isFeature(record) && value === defaultSearchStr(record)) return '';
  return String(value);
}

const isFeature = (record: CatalogueRecord): record is Feature => 'feature_type' in record;

/** A new record's form: the kind a building most often is, published, today's date. */
export function blankValues(list: EditList, today: string): FormValues {
  const values: FormValues = {};
  for (const field of formFields(list)) values[field.key] = field.input === 'categories' ? [] : '';
  if (list === 'features') values['feature_type'] = FEATURE_TYPES[0];
  if (list === 'images' || list === 'documents' || list === 'media') values['published'] = 'yes';
  if (list === 'images') values['copyright'] = 'open';
  if (list === 'documents') values['created'] = today;
  return values;
}

/** What a form's text reads as, before the catalogue's checks: the record in file shape, and the problems by field. */
export interface ReadForm {
  record: Record<string, unknown>;
  /** An author named that is not in the catalogue: made by the save. */
  authorName: string | null;
  problems: Map<string, string>;
}

/** The form's text as a record of the list, its id given (a new record's is found by the save). */
export function readForm(list: EditList, id: number, values: FormValues, today: string): ReadForm {
  const record: Record<string, unknown> = { id };
  const problems = new Map<string, string>();
  let authorName: string | null = null;
  for (const field of formFields(list)) {
    const raw = values[field.key];
    const read = readValue(field.input, raw, today);
    if ('problem' in read) problems.set(field.key, read.problem);
    else if (field.input === 'author' && typeof read.value === 'string') authorName = read.value;
    else if (read.value !== undefined) record[field.key] = read.value;
  }
  return { record, authorName, problems };
}

type Read = { value: unknown } | { problem: string };

const one = (raw: string | string[] | undefined): string => (typeof raw === 'string' ? raw : Array.isArray(raw) ? (raw[0] ?? '') : '');

function readValue(input: InputKind, raw: string | string[] | undefined, today: string): Read {
  const text = one(raw).replace(/\r\n?/g, '\n');
  const trimmed = text.trim();
  switch (input) {
    case 'optional-text': return { value: trimmed === '' ? null : trimmed };
    case 'text': case 'path': return { value: trimmed };
    case 'long-text': case 'markup': return { value: text.trim() };
    case 'optional-date': return { value: trimmed === '' ? null : trimmed };
    case 'date': return { value: trimmed };
    case 'today': return { value: today };
    case 'published': return { value: trimmed === 'yes' };
    case 'licence': return trimmed === 'copyright' || trimmed === 'open' ? { value: trimmed === 'copyright' } : { problem: 'Choose who holds the copyright.' };
    case 'kind': return { value: trimmed };
    case 'search-text': return { value: trimmed === '' ? undefined : trimmed };
    case 'tags': return { value: text.split('\n').map((t) => t.trim()).filter((t) => t !== '') };
    case 'categories': return readCategories(raw);
    case 'year': return readYear(trimmed, today);
    case 'site': return trimmed === '' ? { value: null } : readNumber(trimmed, 'Choose a site from the list, or none.');
    case 'building': return readNumber(trimmed, 'Give the number of a building, such as 1234.');
    case 'author': return trimmed === '' ? { problem: 'Name the author it is credited to.' } : { value: trimmed };
    case 'footprint': return readFootprint(trimmed);
  }
}

function readCategories(raw: string | string[] | undefined): Read {
  const ids = (Array.isArray(raw) ? raw : raw === undefined || raw === '' ? [] : [raw]).map((t) => t.trim());
  const bad = ids.find((t) => !/^[1-9]\d{0,15}$/.test(t));
  return bad === undefined ? { value: [...new Set(ids.map(Number))] } : { problem: `"${bad.slice(0, 40)}" is not a category's number.` };
}

function readYear(text: string, today: string): Read {
  if (text === '') return { value: null };
  const thisYear = Number(today.slice(0, 4));
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > thisYear) return { problem: `A year is a whole number from 1 to ${thisYear}, not "${text.slice(0, 40)}".` };
  return { value: Number(text) };
}

function readNumber(text: string, problem: string): Read {
  return /^[1-9]\d{0,15}$/.test(text) ? { value: Number(text) } : { problem };
}

function readFootprint(text: string): Read {
  if (text === '') return { problem: 'A building needs a footprint: draw it on the map or give it as GeoJSON.' };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: `The footprint is not JSON: ${error instanceof SyntaxError ? error.message : 'it cannot be read'}.` };
  }
}

const validator = new ChangeValidator(DEFAULT_CATALOGUE_LIMITS);

/**
 * The record checked as a change file of one put: the change, or its problems by field. A
 * footprint GIS tools call invalid (rings that cross, repeated corners), which an import takes
 * with a warning, is refused here: an editor can mend it while the form is open.
 */
export function checkRecord(list: EditList, record: Record<string, unknown>): { changes: ChangeSet } | { problems: Map<string, string> } {
  const checked = validator.validate({ format: CHANGES_FORMAT, [list]: { put: [record] } });
  if (!checked.ok) return { problems: problemsByField(list, checked.problems) };
  const warnings = checked.changes.features.put.flatMap((f) => footprintWarnings(f.geometry));
  if (warnings.length > 0) return { problems: problemsByField(list, warnings.map((w) => ({ path: formatPath([list, 'put', 0, ...w.segments]), message: w.message }))) };
  return { changes: checked.changes };
}

/** Problems by JSON path (`features.put[0].geometry.coordinates[0]`) → by the field they are in, with the rest of the path said. */
export function problemsByField(list: EditList, problems: readonly Problem[]): Map<string, string> {
  const byField = new Map<string, string>();
  const prefix = `${list}.put[0]`;
  for (const { path, message } of problems) {
    const rest = path.startsWith(prefix) ? path.slice(prefix.length).replace(/^\./, '') : '';
    const key = /^[A-Za-z_]+/.exec(rest)?.[0] ?? '';
    const where = rest.slice(key.length);
    const said = where === '' ? message : `${where.replace(/^\./, '')}: ${message}`;
    byField.set(key, byField.has(key) ? `${byField.get(key) ?? ''}; ${said}` : said);
  }
  return byField;
}
