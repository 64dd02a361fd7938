// Ajv's errors → our problems: a path in the file's own terms and a message a person editing
// the file understands (`unknown key "colour"`, `must be an integer, not 1898.5`).
// Needs Ajv's `verbose` option, for the failing value and the schema that refused it.
import type { ErrorObject } from 'ajv';
import { dateProblem, FORMAT_PROBLEMS } from './formats.js';
import { unclosedRingMessage } from './geometry.js';
import type { Contact } from './footprint.js';
import { isPlainObject, pointerToSegments, type LocatedProblem, type PathSegment } from './paths.js';
import { quote } from './strings.js';

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  null: 'null',
  array: 'a list',
  object: 'an object',
};

/** A value as a message quotes it: short, and in JSON's words. */
function show(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The schema's own word for this keyword's failure (its `messages` annotation), if any. */
function customMessage(error: ErrorObject): string | undefined {
  const messages: unknown = error.parentSchema?.['messages'];
  const message = isPlainObject(messages) ? messages[error.keyword] : undefined;
  return typeof message === 'string' ? message : undefined;
}

/** An Ajv error's parameter that Ajv gives as text (a key, a tag, a format). */
const textParam = (error: ErrorObject, name: string): string => String(error.params[name]);

/** The failing value's items (Ajv gives the value with `verbose`; these keywords fail on lists only). */
const itemsOf = (data: unknown): unknown[] => (Array.isArray(data) ? data : []);

function typeMessage(error: ErrorObject): string {
  const type: unknown = error.params['type'];
  const types = Array.isArray(type) ? type.map(String) : [String(type)];
  return `must be ${orList(types.map((type) => TYPE_WORDS[type] ?? type))}`;
}

function formatMessage(format: string, value: string): string {
  if (format === 'date') return dateProblem(value);
  return FORMAT_PROBLEMS[format]?.(value) ?? `must be a ${format}`;
}

/** A discriminated `oneOf` refused its tag: name the tag values its branches accept. */
function tagMessage(error: ErrorObject): string {
  const tag = textParam(error, 'tag');
  const value: unknown = error.params['tagValue'];
  if (value === undefined) return `required key "${tag}" is missing`;
  return `must be ${orList(itemsOf(error.parentSchema?.['oneOf']).map((branch) => show(tagConst(branch, tag))))}, not ${show(value)}`;
}

/** The value a `oneOf` branch's schema gives its tag (`properties.TAG.const`). */
function tagConst(branch: unknown, tag: string): unknown {
  const properties = isPlainObject(branch) ? branch['properties'] : undefined;
  const property = isPlainObject(properties) ? properties[tag] : undefined;
  return isPlainObject(property) ? property['const'] : undefined;
}

/** The message for a keyword whose failure is about the value itself. */
function valueMessage(error: ErrorObject): string {
  const { keyword, params, data } = error;
  const custom = customMessage(error);
  switch (keyword) {
    case 'type':
      return `${custom ?? typeMessage(error)}, not ${show(data)}`;
    case 'minimum':
    case 'maximum':
      return `${custom ?? `must be ${params['comparison']} ${params['limit']}`}, not ${show(data)}`;
    case 'minLength':
      return custom ?? `must have at least ${params['limit']} characters`;
    case 'minItems':
    case 'maxItems':
    case 'additionalItems':
      return `${custom ?? `must have ${keyword === 'minItems' ? 'at least' : 'at most'} ${params['limit']} items`} (it has ${itemsOf(data).length})`;
    case 'enum':
      return `must be one of ${orList(itemsOf(params['allowedValues']).map(show))}, not ${show(data)}`;
    case 'const':
      return `must be ${show(params['allowedValue'])}, not ${show(data)}`;
    case 'format':
      return formatMessage(textParam(error, 'format'), String(data));
    case 'closedRing':
      return unclosedRingMessage(itemsOf(data));
    default:
      return error.message ?? 'is not valid';
  }
}

/**
 * One Ajv error as a problem. A missing, unknown or wrong key is placed at the key itself
 * (`features[0].colour`), not at the object holding it, so that it sorts where it is.
 */
export function problemFromAjvError(error: ErrorObject): LocatedProblem {
  const segments: PathSegment[] = pointerToSegments(error.instancePath);
  const { params } = error;
  switch (error.keyword) {
    case 'required':
      return { segments: [...segments, params['missingProperty']], message: `required key "${params['missingProperty']}" is missing` };
    case 'additionalProperties':
      return { segments: [...segments, params['additionalProperty']], message: `unknown key ${quote(textParam(error, 'additionalProperty'))}` };
    case 'discriminator':
      return { segments: [...segments, params['tag']], message: tagMessage(error) };
    default:
      return { segments, message: valueMessage(error) };
  }
}

/** [from, to]: the places in its ring of an edge's two positions. */
type EdgePlaces = readonly [number, number];

const edge = ([from, to]: EdgePlaces) => `edge from position ${from} to ${to}`;
const MEETS: Readonly<Record<Contact, string>> = { cross: 'crosses', touch: 'touches', overlap: 'overlaps' };

/**
 * The warnings of a footprint that GIS tools call invalid (footprint.ts), each at the path of
 * its ring or position: the file is still accepted (docs/site.md, "The catalogue file").
 */
export const FOOTPRINT_WARNINGS = {
  repeated: (position: readonly number[]) => `repeats the position before it (${JSON.stringify(position)}); GIS tools drop it or call the footprint invalid`,
  tooShort: (positions: number) => `ring has ${positions} position${positions === 1 ? '' : 's'} once repeated ones are dropped; a ring needs at least 4 (3 corners and the first again)`,
  selfIntersection: ([mine, other]: readonly [EdgePlaces, EdgePlaces], kind: Contact) =>
    `self-intersection: the ring's ${edge(mine)} ${MEETS[kind]} its ${edge(other)}`,
  ringsMeet: (ring: number, [mine, other]: readonly [EdgePlaces, EdgePlaces], kind: Contact) =>
    kind === 'touch'
      ? `self-intersection: the ring touches ring ${ring} at more than one point (its ${edge(mine)} and that ring's ${edge(other)})`
      : `self-intersection: the ring ${MEETS[kind]} ring ${ring} (its ${edge(mine)} and that ring's ${edge(other)})`,
} as const;
