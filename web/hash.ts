// The URL's fragment: `#map=17/51.516/-0.067&feature=366&q=synagogue&categories=3&from=1850&to=1899&tags=pub`:
// the view, the selected feature and the search, so a view or a search can be shared and
// back/forward can move between selections.

export interface View {
  zoom: number;
  lat: number;
  lon: number;
}

/** The search form's fields, as typed ('' when empty). */
export interface SearchFields {
  q: string;
  categories: string;
  year_from: string;
  year_to: string;
  tags: string;
}

export interface HashState {
  view: View | null;
  feature: number | null;
  search: SearchFields;
}

/** Each search field's name in the fragment. */
const SEARCH_KEYS: Readonly<Record<keyof SearchFields, string>> = { q: 'q', categories: 'categories', year_from: 'from', year_to: 'to', tags: 'tags' };

export const NO_SEARCH: SearchFields = { q: '', categories: '', year_from: '', year_to: '', tags: '' };

export function parseHash(hash: string): HashState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { view: parseView(params.get('map')), feature: parseFeature(params.get('feature')), search: parseSearch(params) };
}

function parseView(value: string | null): View | null {
  const parts = value?.split('/').map(Number);
  if (!parts || parts.length !== 3 || parts.some((n) => !Number.isFinite(n))) return null;
  const [zoom, lat, lon] = parts as [number, number, number];
  if (zoom < 0 || zoom > 24 || Math.abs(lat) > 85.06 || Math.abs(lon) > 180) return null;
  return { zoom, lat, lon };
}

function parseFeature(value: string | null): number | null {
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/** The fields as given (the API checks them, and says what is wrong, as for a typed search). */
function parseSearch(params: URLSearchParams): SearchFields {
  const fields = { ...NO_SEARCH };
  for (const [field, key] of Object.entries(SEARCH_KEYS) as [keyof SearchFields, string][]) fields[field] = (params.get(key) ?? '').trim().slice(0, 500);
  return fields;
}

export function sameSearch(a: SearchFields, b: SearchFields): boolean {
  return (Object.keys(SEARCH_KEYS) as (keyof SearchFields)[]).every((k) => a[k] === b[k]);
}

export function formatHash(state: HashState): string {
  const parts: string[] = [];
  if (state.view) {
    const { zoom, lat, lon } = state.view;
    // About 1 m at zoom 17: precision grows with the zoom.
    const digits = Math.max(2, Math.ceil(Math.log10(2 ** zoom)) + 1);
    parts.push(`map=${round(zoom, 2)}/${round(lat, digits)}/${round(lon, digits)}`);
  }
  if (state.feature !== null) parts.push(`feature=${state.feature}`);
  const search = new URLSearchParams();
  for (const [field, key] of Object.entries(SEARCH_KEYS) as [keyof SearchFields, string][]) if (state.search[field] !== '') search.set(key, state.search[field]);
  if (search.toString() !== '') parts.push(search.toString());
  return parts.length === 0 ? '' : `#${parts.join('&')}`;
}

function round(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}
