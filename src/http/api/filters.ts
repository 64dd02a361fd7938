// The finding-things query parameters → checked, normalised Filters, or a 400 whose
// detail names the parameter and what was expected. As django-filter did: the last of a
// repeated parameter wins, an empty value is no filter, a parameter that does not apply
// to the collection is ignored (except date_range on media, which has no dates).
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import { FEATURE_TYPES, type FeatureType } from '../../catalogue/format.js';
import type { Collection } from '../../constants.js';
import type { QueryPairs } from '../../render/links.js';
import { isLonLatBox } from '../../search/lon-lat.js';
import { MAX_QUERY_LENGTH, MAX_QUERY_WORDS, MAX_WORD_LENGTH, essentialWords, foldText, queryWords } from '../../search/text.js';
import { filterApplies, type FilterName, type Filters } from '../../store/filters.js';
import { ERRORS } from '../../errors.js';
import { checkParameterText } from '../protocol/query-text.js';
import { lastValue } from './params.js';

const MAX_LIST = 100;

const invalid = ERRORS.invalidFilter;

/** Which collections a parameter applies to is the store's knowledge (filterApplies). */
interface Parameter {
  name: FilterName;
  parse(value: string, collection: Collection): Filters;
}

/** Characters as a person counts them (and JSON Schema's maxLength): code points. */
const codePoints = (text: string) => [...text].length;

const ID = /^\d{1,9}$/;
const YEAR = /^-?\d{1,4}$/;

function id(name: string, value: string): number {
  if (!ID.test(value.trim())) throw invalid(name, 'an id (a whole number)');
  return Number(value.trim());
}

function commaList(name: string, value: string, expected: string): string[] {
  const items = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (items.length === 0 || items.length > MAX_LIST) throw invalid(name, `${expected}, comma-separated (1 to ${MAX_LIST})`);
  return items;
}

function range<T extends string | number>(name: string, value: string, item: (v: string) => T | null, expected: string): { from: T; to: T | null } {
  const [first = '', second, ...more] = value.split(',').map((v) => v.trim());
  const from = item(first);
  const to = second === undefined ? null : item(second);
  if (more.length > 0 || from === null || (second !== undefined && to === null)) throw invalid(name, expected);
  if (to !== null && from > to) throw invalid(name, `${expected}, the first not after the second`);
  return { from, to };
}

function realDate(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? value : null;
}

const isFour = (numbers: number[]): numbers is [number, number, number, number] => numbers.length === 4;

function bbox(value: string): Filters['bbox'] {
  const expected = 'minLon,minLat,maxLon,maxLat: four numbers in degrees (WGS84), min not above max';
  const parts = value.split(',').map((v) => v.trim());
  const numbers = parts.map((v) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) ? Number(v) : NaN));
  if (!isFour(numbers) || numbers.some((n) => !Number.isFinite(n))) throw invalid('bbox', expected);
  const [minLon, minLat, maxLon, maxLat] = numbers;
  if (!isLonLatBox(minLon, minLat, maxLon, maxLat)) throw invalid('bbox', expected);
  return [minLon, minLat, maxLon, maxLat];
}

/** A text query's words (the OGC face's `q` too), or null when it has none. */
export function parseQueryWords(value: string): string[] | null {
  if (codePoints(value) > MAX_QUERY_LENGTH) throw invalid('q', `at most ${MAX_QUERY_LENGTH} characters`);
  const words = queryWords(value);
  if (words.length > MAX_QUERY_WORDS) throw invalid('q', `at most ${MAX_QUERY_WORDS} words`);
  if (words.some((w) => codePoints(w) > MAX_WORD_LENGTH)) throw invalid('q', `words of at most ${MAX_WORD_LENGTH} characters`);
  return words.length === 0 ? null : essentialWords(words);
}

const PARAMETERS: readonly Parameter[] = [
  {
    name: 'q',
    parse: (value) => {
      const words = parseQueryWords(value);
      return words === null ? {} : { words };
    },
  },
  { name: 'author', parse: (value) => ({ author: id('author', value) }) },
  {
    name: 'categories',
    parse: (value) => ({ categories: commaList('categories', value, 'category ids').map((v) => id('categories', v)) }),
  },
  { name: 'tags', parse: (value) => ({ tags: [...new Set(commaList('tags', value, 'tags').map(foldText))] }) },
  {
    name: 'year_range',
    parse: (value) => ({
      yearRange: range('year_range', value, (v) => (YEAR.test(v) ? Number(v) : null), 'a year Y, or two years Y1,Y2'),
    }),
  },
  {
    name: 'date_range',
    parse: (value, collection) => {
      if (collection === 'features') return {};
      if (collection === 'media') throw ERRORS.mediaHasNoDate();
      return { dateRange: range('date_range', value, realDate, 'a date YYYY-MM-DD, or two dates D1,D2') };
    },
  },
  {
    name: F.type,
    parse: (value) => {
      const types = commaList(F.type, value, `feature types (${FEATURE_TYPES.join(', ')})`);
      if (!types.every((t): t is FeatureType => FEATURE_TYPES.some((type) => type === t))) {
        throw invalid(F.type, `one or more of ${FEATURE_TYPES.join(', ')}, comma-separated`);
      }
      return { featureTypes: [...new Set(types)] };
    },
  },
  { name: 'site', parse: (value) => ({ site: id('site', value) }) },
  { name: 'street', parse: (value) => ({ street: foldText(value.trim()) }) },
  { name: F.postalCode, parse: (value) => ({ [F.postalCode]: foldText(value.trim()) }) },
  { name: 'bbox', parse: (value) => ({ bbox: bbox(value) }) },
  { name: 'feature', parse: (value) => ({ feature: id('feature', value) }) },
];

/** The names, for documentation (OPTIONS, docs/api.md). */
export const FILTER_PARAMETERS: readonly string[] = PARAMETERS.map((p) => p.name);

export { filterParametersOf } from '../../store/filters.js';

export function parseFilters(collection: Collection, pairs: QueryPairs): Filters {
  let filters: Filters = {};
  for (const parameter of PARAMETERS) {
    if (!filterApplies(parameter.name, collection)) continue;
    const value = lastValue(pairs, parameter.name);
    if (value === undefined || value.trim() === '') continue;
    checkParameterText(parameter.name, value);
    filters = { ...filters, ...parameter.parse(value, collection) };
  }
  return filters;
}
