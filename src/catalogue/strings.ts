// Strings as the catalogue allows them and as messages quote them. A NUL cannot be stored by
// PostgreSQL and a lone UTF-16 surrogate is not a character (UTF-8 has no form for it, so it
// would come back as U+FFFD): both are refused wherever they are, keys included.
import { count, describeLimit, type CatalogueLimits } from './limits.js';
import type { LocatedProblem, PathSegment } from './paths.js';

/** Keys and values quoted in messages are cut to this many characters. */
export const QUOTE_CHARS = 100;

/** `"text"`, or for a long one `"first 100 characters…" (12,345 characters)`; `length`: of the whole when `text` was cut. */
export function quote(text: string, length = text.length): string {
  if (length <= QUOTE_CHARS) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, QUOTE_CHARS)}…`)} (${count(length)} characters)`;
}

/** A key as a path segment shows it: long ones cut, without the length. */
export function cutKey(key: string): string {
  return key.length <= QUOTE_CHARS ? key : `${key.slice(0, QUOTE_CHARS)}…`;
}

const SUSPECT = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a string's characters, or undefined. */
export function characterProblem(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone UTF-16 surrogate (such as \\ud800): it is not a character';
  return undefined;
}

/** What is wrong with a string value of `length` characters (`text` may be cut to the limit). */
export function stringProblem(text: string, length: number, limits: CatalogueLimits): string | undefined {
  if (length > limits.maxStringChars) return `is a string of ${count(length)} characters: ${describeLimit('maxStringChars', limits)}`;
  return characterProblem(text);
}

/** What is wrong with an object key (the path names the key itself). */
export function keyProblem(key: string, length: number, limits: CatalogueLimits): string | undefined {
  const problem = stringProblem(key, length, limits);
  return problem === undefined ? undefined : `the key ${quote(key, length)} ${problem.replace(/^is a string of/, 'has')}`;
}

/** The same checks over a value already parsed (validateCatalogue): every string and key. */
export function parsedStringProblems(value: unknown, limits: CatalogueLimits, at: PathSegment[] = []): LocatedProblem[] {
  if (typeof value === 'string') {
    const problem = stringProblem(value, value.length, limits);
    return problem === undefined ? [] : [{ segments: at, message: problem }];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => parsedStringProblems(item, limits, [...at, i]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const problem = keyProblem(key, key.length, limits);
    const segments = [...at, cutKey(key)];
    return problem === undefined ? parsedStringProblems(child, limits, segments) : [{ segments, message: problem }];
  });
}
