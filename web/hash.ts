// The URL's fragment: `#map=17/51.516/-0.067&feature=366`, the view and the selected feature,
// so a view can be shared and back/forward can move between selections.

export interface View {
  zoom: number;
  lat: number;
  lon: number;
}

export interface HashState {
  view: View | null;
  feature: number | null;
}

export function parseHash(hash: string): HashState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { view: parseView(params.get('map')), feature: parseFeature(params.get('feature')) };
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

export function formatHash(state: HashState): string {
  const parts: string[] = [];
  if (state.view) {
    const { zoom, lat, lon } = state.view;
    // About 1 m at zoom 17: precision grows with the zoom.
    const digits = Math.max(2, Math.ceil(Math.log10(2 ** zoom)) + 1);
    parts.push(`map=${round(zoom, 2)}/${round(lat, digits)}/${round(lon, digits)}`);
  }
  if (state.feature !== null) parts.push(`feature=${state.feature}`);
  return parts.length === 0 ? '' : `#${parts.join('&')}`;
}

function round(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}
