// An /ogc/ query string, read strictly: each parameter with one value (a repeat with another
// value is a 400), none holding NUL (protocol/query-text.ts), and only the parameters the
// path takes (OGC API – Features /req/core/query-param-unknown).
import { OGC_ERRORS } from '../../errors.js';
import { checkParameterText } from '../protocol/query-text.js';
import { DOWNLOAD_FORMATS, isDownloadFormat, type DownloadFormat } from '../../ogc/downloads.js';

export interface OgcQuery {
  get(name: string): string | undefined;
  readonly names: readonly string[];
}

/**
 * The query of a request URL (form-encoded: `+` is a space), each name with one value. The
 * same value again is taken: GDAL appends its dataset URL's query string (`OAPIF:…?datetime=…`)
 * to every URL it reads that does not hold it character for character, `next` links included,
 * and links spell values their own way (`/` as `%2F`). Taking the repeat, rather than echoing
 * each request's own spelling in links, serves any client that appends so, on every path.
 */
export function readOgcQuery(url: string): OgcQuery {
  const at = url.indexOf('?');
  const params = new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    checkParameterText(name, value);
    const seen = values.get(name);
    if (seen !== undefined && seen !== value) throw OGC_ERRORS.repeatedParameter(name);
    values.set(name, value);
  }
  return { get: (name) => values.get(name), names: [...values.keys()] };
}

export function checkParameters(query: OgcQuery, known: readonly string[]): void {
  const unknown = query.names.find((name) => !known.includes(name));
  if (unknown !== undefined) throw OGC_ERRORS.unknownParameter(unknown, known.length === 0 ? 'no parameters' : known.join(', '));
}

/** What the paths other than items take (items: items-params.ts, itemsParameterNames). */
export const FORMAT_PARAMETERS: readonly string[] = ['f'];
export const ITEM_PARAMETERS: readonly string[] = ['f', 'properties', 'skipGeometry', 'crs'];

/** The values `f` takes: json, or html on the pages for people (http/ogc/html.ts). */
export const FORMATS = ['json', 'html'] as const;
/** And on an items path, the whole result as a file (ogc/downloads.ts). */
export const ITEMS_FORMATS = [...FORMATS, ...DOWNLOAD_FORMATS] as const;

/** `f`, or null when absent; anything else is an invalid value. */
export function readFormat(query: OgcQuery): (typeof FORMATS)[number] | null {
  const f = query.get('f');
  if (f === undefined) return null;
  if ((FORMATS as readonly string[]).includes(f)) return f as (typeof FORMATS)[number];
  throw OGC_ERRORS.invalidParameter('f', FORMATS.join(' or '));
}

/** `f` on an items path: json, html, a download format, or null when absent. */
export function readItemsFormat(query: OgcQuery): (typeof FORMATS)[number] | DownloadFormat | null {
  const f = query.get('f');
  if (f === undefined) return null;
  if ((FORMATS as readonly string[]).includes(f)) return f as (typeof FORMATS)[number];
  if (isDownloadFormat(f)) return f;
  throw OGC_ERRORS.invalidParameter('f', `one of ${ITEMS_FORMATS.join(', ')} (json: a page; html: a page for people; the others: the whole result as a file)`);
}
