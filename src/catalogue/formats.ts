// The string formats of a catalogue that JSON Schema has no word for. Each is one function
// returning what is wrong with a string (undefined when nothing is), so the schema's yes/no
// check and the problem's message cannot disagree.

/** A path under the media root: `uploads/features/366/Osborn St 1975 (GLC).jpg`. */
export function mediaPathProblem(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (path.startsWith('/')) return 'must be relative to the media root (no leading "/")';
  if (path.includes('\\')) return 'must use "/" as the separator (no backslash)';
  for (const segment of path.split('/')) {
    if (segment === '') return 'must not have an empty segment ("//" or a trailing "/")';
    if (segment === '.' || segment === '..') return `must not have a "${segment}" segment`;
  }
  return undefined;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// WHATWG URL parsing quietly drops or encodes these; a URL served as given must not hold them.
const SPACE_OR_CONTROL = /[\u0000-\u0020\u007f]/;

/** An absolute http(s) URL; non-ASCII characters are fine (clarifications.md). */
export function httpUrlProblem(url: string): string | undefined {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'must be an absolute http(s) URL';
  if (scheme !== 'http' && scheme !== 'https') return `must be an http(s) URL, not ${scheme}:`;
  if (!/^https?:\/\//i.test(url)) return 'must be an absolute http(s) URL (scheme followed by "//")';
  if (SPACE_OR_CONTROL.test(url)) return 'must not contain spaces or control characters';
  if (!URL.canParse(url)) return 'is not a valid URL';
  return undefined;
}

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
export const DATE_FORM = 'must be a date in the form YYYY-MM-DD';

/** Only the message: whether a date is real is ajv-formats' `date` check. */
export function dateProblem(date: string): string {
  return DATE_SHAPE.test(date) ? `${JSON.stringify(date)} is not a real calendar date` : `${DATE_FORM}, not ${JSON.stringify(date)}`;
}

/** The formats we add to Ajv, by the name a schema gives them (`date` is ajv-formats'). */
export const FORMAT_PROBLEMS: Readonly<Record<string, (value: string) => string | undefined>> = {
  'media-path': mediaPathProblem,
  'http-url': httpUrlProblem,
};
