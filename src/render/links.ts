// Links built as the original (Django REST framework) built them: take the request's query
// (parsed by http/api/params.ts), set or remove one parameter, and re-encode every parameter
// sorted by name, form-encoded the way Python's urlencode(quote_plus) does.

/** A query as name–value pairs in the order sent, repeated names kept. */
export type QueryPairs = readonly (readonly [string, string])[];

/** The query with `key` set to `value` (all earlier values replaced) or removed (null). */
export function replaceQueryParam(pairs: QueryPairs, key: string, value: string | null): [string, string][] {
  const kept = pairs.filter(([k]) => k !== key).map(([k, v]): [string, string] => [k, v]);
  return value === null ? kept : [...kept, [key, value]];
}

/** Python's urlencode(sorted(parse_qs(q).items()), doseq=True): keys sorted, values kept in order. */
export function encodeQuery(pairs: QueryPairs): string {
  const keys = [...new Set(pairs.map(([k]) => k))].sort(compareCodePoints);
  return keys
    .flatMap((key) => pairs.filter(([k]) => k === key).map(([, v]) => `${quotePlus(key)}=${quotePlus(v)}`))
    .join('&');
}

export function buildUrl(base: string, path: string, pairs: QueryPairs): string {
  const query = encodeQuery(pairs);
  return query === '' ? `${base}${path}` : `${base}${path}?${query}`;
}

/** Python's quote_plus: UTF-8 bytes, only A–Z a–z 0–9 _ . - ~ left as they are, space as +. */
export function quotePlus(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
}

/** Python orders strings by code point; JavaScript's default sort by UTF-16 unit. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
