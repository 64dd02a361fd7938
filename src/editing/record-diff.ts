// A record's change in words, field by field, as the history, the latest changes and a change
// file's preview show it ("Address: 5 Fournier Street → 7 Fournier Street"): references by the
// name of what they name, booleans as words, a footprint by its size, long text shortened
// around what changed. Pure: the names of referenced records are handed in.
import { FEATURE_KEYS as F, fieldsOf } from '../catalogue/fields.js';
import { FEATURE_TYPES } from '../catalogue/format.js';
import type { CatalogueRecord, ListName } from '../catalogue/lists.js';
import {
  HTML_FIELDS, KIND_WORDS, LABEL_FIELDS, LIST_WORDS, LONG_TEXT_FIELDS, NONE, REFERENCE_FIELDS, UNLISTED_FIELDS, fieldLabel, licenceWords, yesNo,
} from './field-words.js';

/** The lists a record's field may name a record of. */
export type ReferenceList = 'authors' | 'features' | 'sites' | 'categories';
export const REFERENCE_LISTS: readonly ReferenceList[] = ['authors', 'features', 'sites', 'categories'];

/** The label of a referenced record, or null when there is none of that number. */
export type Names = (list: ReferenceList, id: number) => string | null;

/** One field's change: its label, and what became of it in words. */
export interface FieldChange {
  key: string;
  label: string;
  text: string;
}

/** Long text is shown up to this many characters around what changed. */
const TEXT_SHOWN = 80;

type Fields = Readonly<Record<string, unknown>>;
const fieldsOfRecord = (record: CatalogueRecord): Fields => record;

/** What names a record: its name or title (a building without one: its address), else its kind and number. */
export function recordLabel(list: ListName, record: CatalogueRecord): string {
  const fields = fieldsOfRecord(record);
  for (const key of LABEL_FIELDS[list]) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return `${LIST_WORDS[list].one} ${record.id}`;
}

/**
 * A record's label read from the first characters of its JSON (keys in file order, so the
 * fields that name it come early): null when they are not there.
 */
export function labelFromJsonPrefix(list: ListName, prefix: string): string | null {
  for (const key of LABEL_FIELDS[list]) {
    const found = new RegExp(`"${key}":("(?:[^"\\\\]|\\\\.)*")`).exec(prefix);
    const value: unknown = found ? JSON.parse(found[1] ?? '""') : null;
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/** Every record number the records' fields name, by list. */
export function referencesIn(list: ListName, records: readonly (CatalogueRecord | null)[]): Record<ReferenceList, number[]> {
  const found: Record<ReferenceList, Set<number>> = { authors: new Set(), features: new Set(), sites: new Set(), categories: new Set() };
  const references = REFERENCE_FIELDS[list] ?? {};
  for (const record of records) {
    if (record === null) continue;
    const fields = fieldsOfRecord(record);
    for (const [key, target] of Object.entries(references)) {
      for (const id of idsOf(fields[key])) found[target].add(id);
    }
  }
  return { authors: [...found.authors], features: [...found.features], sites: [...found.sites], categories: [...found.categories] };
}

const idsOf = (value: unknown): number[] => (typeof value === 'number' ? [value] : Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);

/**
 * What changed from `before` to `after`, field by field in the list's order: a new record
 * (before null) lists every field it has a value in; a removed one (after null) lists none.
 */
export function fieldChanges(list: ListName, before: CatalogueRecord | null, after: CatalogueRecord | null, names: Names): FieldChange[] {
  if (after === null) return [];
  const now = fieldsOfRecord(after);
  const was = before === null ? null : fieldsOfRecord(before);
  const changes: FieldChange[] = [];
  for (const { key } of fieldsOf(list)) {
    if (UNLISTED_FIELDS.includes(key)) continue;
    const text = was === null ? newValue(list, key, now[key], names) : changedValue(list, key, was[key], now[key], names);
    if (text !== null) changes.push({ key, label: fieldLabel(list, key), text });
  }
  return changes;
}

/** A new record's field in words, or null when it holds nothing worth saying. */
function newValue(list: ListName, key: string, value: unknown, names: Names): string | null {
  if (isEmpty(value)) return null;
  if (key === 'geometry') return `drawn (${pointCount(value)} points)`;
  return valueWords(list, key, value, names);
}

/** A field's change in words, or null when it did not change. */
function changedValue(list: ListName, key: string, was: unknown, now: unknown, names: Names): string | null {
  if (JSON.stringify(was) === JSON.stringify(now)) return null;
  if (key === 'geometry') return now === null || now === undefined ? 'removed' : `changed (${pointCount(now)} points)`;
  if (Array.isArray(was) && Array.isArray(now)) return listChange(list, key, was, now, names);
  if (LONG_TEXT_FIELDS[list]?.includes(key) && typeof was === 'string' && typeof now === 'string') return textChange(readable(list, key, was), readable(list, key, now));
  return `${valueWords(list, key, was, names)} → ${valueWords(list, key, now, names)}`;
}

const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** One value in words: a reference by its name, a kind, licence or flag in words, a list joined. */
export function valueWords(list: ListName, key: string, value: unknown, names: Names): string {
  if (isEmpty(value)) return NONE;
  const target = REFERENCE_FIELDS[list]?.[key];
  if (target !== undefined) return idsOf(value).map((id) => referenceName(target, id, names)).join(', ');
  if (typeof value === 'boolean') return list === 'images' && key === 'copyright' ? licenceWords(value) : yesNo(value);
  if (key === 'geometry') return `${pointCount(value)} points`;
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'string') return kindWords(value, list, key) ?? shortText(readable(list, key, value), LONG_TEXT_FIELDS[list]?.includes(key) === true);
  return String(value);
}

function kindWords(value: string, list: ListName, key: string): string | null {
  if (list !== 'features' || key !== F.type) return null;
  const kind = FEATURE_TYPES.find((k) => k === value);
  return kind === undefined ? value : KIND_WORDS[kind];
}

export function referenceName(target: ReferenceList, id: number, names: Names): string {
  return names(target, id) ?? `${LIST_WORDS[target].one} ${id} (not in the catalogue)`;
}

/** A list of references or words: what was added and what was taken away. */
function listChange(list: ListName, key: string, was: unknown[], now: unknown[], names: Names): string {
  const words = (values: unknown[]) => valueWords(list, key, values, names);
  const added = now.filter((v) => !was.includes(v));
  const removed = was.filter((v) => !now.includes(v));
  const parts = [added.length > 0 ? `added ${words(added)}` : '', removed.length > 0 ? `removed ${words(removed)}` : ''].filter((p) => p !== '');
  return parts.length > 0 ? parts.join('; ') : `reordered: ${words(was)} → ${words(now)}`;
}

/** Long text: what changed, shortened, in whole words with one word before it, and the lengths before and after. */
export function textChange(was: string, now: string): string {
  let start = 0;
  while (start < was.length && start < now.length && was[start] === now[start]) start++;
  let end = 0;
  while (end < was.length - start && end < now.length - start && was[was.length - 1 - end] === now[now.length - 1 - end]) end++;
  const count = (text: string) => `${text.length.toLocaleString('en-GB')} character${text.length === 1 ? '' : 's'}`;
  const part = (text: string, from: number, to: number) => {
    const middle = text.slice(from, text.length - to);
    const shown = middle.length > TEXT_SHOWN ? `${middle.slice(0, TEXT_SHOWN)}…` : middle;
    return `“${from > 0 ? '…' : ''}${shown}${to > 0 ? '…' : ''}”`;
  };
  if (start === was.length - end) return `changed (${count(was)} → ${count(now)}): ${part(now, start, end)} added`;
  if (start === now.length - end) return `changed (${count(was)} → ${count(now)}): ${part(was, start, end)} taken out`;
  // Within the common parts both texts agree, so one widening serves both.
  const from = wordBefore(was, wordStart(was, start));
  const to = wordEnd(was, end);
  return `changed (${count(was)} → ${count(now)}): ${part(was, from, to)} → ${part(now, from, to)}`;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/** Back to the start of the word at `i`. */
function wordStart(text: string, i: number): number {
  while (i > 0 && !isSpace(text[i - 1])) i--;
  return i;
}

/** Back over the spaces and the word before `i`. */
function wordBefore(text: string, i: number): number {
  while (i > 0 && isSpace(text[i - 1])) i--;
  return wordStart(text, i);
}

/** A common ending of `end` characters shortened to begin at a word's end. */
function wordEnd(text: string, end: number): number {
  while (end > 0 && !isSpace(text[text.length - end])) end--;
  return end;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** A field kept as HTML read as its text (tags out, paragraphs apart, the common entities read); any other as it is. */
function readable(list: ListName, key: string, value: string): string {
  if (HTML_FIELDS[list]?.includes(key) !== true) return value;
  return value.replace(/<\/(p|h\d|li|blockquote)>/gi, '\n').replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e] ?? '').trim();
}

function shortText(text: string, long: boolean): string {
  const flat = long ? text.replace(/\s+/g, ' ').trim() : text;
  return long && flat.length > TEXT_SHOWN ? `${flat.slice(0, TEXT_SHOWN)}… (${text.length.toLocaleString('en-GB')} characters)` : flat;
}

/** Positions in a footprint (every ring of every polygon). */
export function pointCount(geometry: unknown): number {
  if (typeof geometry !== 'object' || geometry === null || !('coordinates' in geometry)) return 0;
  const count = (value: unknown): number => (Array.isArray(value) ? (typeof value[0] === 'number' ? 1 : value.reduce((n: number, v) => n + count(v), 0)) : 0);
  return count(geometry.coordinates);
}
