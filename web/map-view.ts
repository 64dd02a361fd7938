// The MapLibre map: a plain background (or BASEMAP_URL's base map), every footprint from the
// vector tiles coloured by its first category (those too small to see as points), search
// matches and the selection on top.
import { Map as MapLibre, NavigationControl, ScaleControl, type ExpressionSpecification, type LngLatBoundsLike, type StyleSpecification } from 'maplibre-gl';
import { MAP_BACKGROUND } from '../src/palette.js';
import { NO_CATEGORY_COLOUR } from './colours.js';
import type { View } from './hash.js';
import type { Geometry, MapConfig } from './types.js';

export const SOURCE = 'features';
export const SOURCE_LAYER = 'features';
/** Footprints under 2 pixels across at a zoom: a point per 2 × 2 pixel cell (src/tiles/layers.ts). */
export const POINT_SOURCE_LAYER = 'points';
export const LAYERS = {
  points: 'footprints-points',
  fill: 'footprints-fill',
  line: 'footprints-line',
  matchLine: 'matches-line',
  selectedFill: 'selected-fill',
  selectedLine: 'selected-line',
} as const;

/** Tiles are fetched up to this zoom, and drawn larger beyond it. */
const TILE_MAX_ZOOM = 16;
const NOTHING: ExpressionSpecification = ['==', ['get', 'id'], -1];

export function createMap(container: HTMLElement, config: MapConfig, view: View | null): MapLibre {
  const map = new MapLibre({
    container,
    style: baseStyle(config),
    ...(view ? { center: [view.lon, view.lat], zoom: view.zoom } : config.extent ? { bounds: config.extent as LngLatBoundsLike, fitBoundsOptions: { padding: 24 } } : { center: [0, 20], zoom: 1 }),
    maxZoom: 21,
    attributionControl: false,
    dragRotate: false,
    pitchWithRotate: false,
  });
  map.touchZoomRotate.disableRotation();
  // Zoom buttons, and a compass that is the north arrow (the map keeps north up).
  map.addControl(new NavigationControl({ showCompass: true, visualizePitch: false }), 'top-right');
  map.addControl(new ScaleControl({ maxWidth: 120, unit: 'metric' }), 'bottom-left');
  return map;
}

function baseStyle(config: MapConfig): StyleSpecification | string {
  if (config.basemap?.kind === 'style') return config.basemap.url;
  const style: StyleSpecification = { version: 8, sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': MAP_BACKGROUND } }] };
  if (config.basemap?.kind === 'raster') {
    style.sources.basemap = { type: 'raster', tiles: [config.basemap.url], tileSize: 256 };
    style.layers.push({ id: 'basemap', type: 'raster', source: 'basemap' });
  }
  return style;
}

/** Adds the footprints once the base style is loaded. */
export function addFootprints(map: MapLibre, config: MapConfig, colours: Map<number, string>): void {
  map.addSource(SOURCE, { type: 'vector', tiles: [config.tiles], maxzoom: TILE_MAX_ZOOM });
  const common = { source: SOURCE, 'source-layer': SOURCE_LAYER } as const;
  map.addLayer({
    id: LAYERS.points, type: 'circle', source: SOURCE, 'source-layer': POINT_SOURCE_LAYER,
    paint: { 'circle-color': colourExpression(colours), 'circle-radius': 1.5, 'circle-opacity': 0.8 },
  });
  map.addLayer({ id: LAYERS.fill, type: 'fill', ...common, paint: { 'fill-color': colourExpression(colours), 'fill-opacity': 0.8 } });
  map.addLayer({
    id: LAYERS.line, type: 'line', ...common,
    paint: { 'line-color': '#3f3a33', 'line-width': 0.6, 'line-opacity': ['interpolate', ['linear'], ['zoom'], 13, 0, 15.5, 0.7] },
  });
  map.addLayer({
    id: LAYERS.matchLine, type: 'line', ...common, filter: NOTHING,
    paint: {
      'line-color': '#111827',
      // Hairlines while footprints are a few pixels across (a dense search would go black), bolder close up.
      'line-width': ['interpolate', ['linear'], ['zoom'], 12, 0.4, 15, 1.2, 18, 3],
    },
  });
  map.addLayer({ id: LAYERS.selectedFill, type: 'fill', ...common, filter: NOTHING, paint: { 'fill-color': '#facc15', 'fill-opacity': 0.85 } });
  map.addLayer({ id: LAYERS.selectedLine, type: 'line', ...common, filter: NOTHING, paint: { 'line-color': '#b45309', 'line-width': 3 } });
}

function colourExpression(colours: Map<number, string>): ExpressionSpecification | string {
  if (colours.size === 0) return NO_CATEGORY_COLOUR;
  const pairs = [...colours].flatMap(([id, colour]) => [id, colour]);
  return ['match', ['to-number', ['get', 'category_id'], -1], ...pairs, NO_CATEGORY_COLOUR] as unknown as ExpressionSpecification;
}

/** Outlines every match of a search and dims the rest (null: no search). */
export function showMatches(map: MapLibre, ids: readonly number[] | null): void {
  if (!map.getLayer(LAYERS.matchLine)) return;
  const matched = isMatch(ids ?? []);
  map.setFilter(LAYERS.matchLine, ids === null ? NOTHING : matched);
  map.setPaintProperty(LAYERS.fill, 'fill-opacity', ids === null ? 0.8 : ['case', matched, 0.95, 0.25]);
  // A point stands for a cell of footprints and carries the lowest id only: dimmed with the rest during a search.
  map.setPaintProperty(LAYERS.points, 'circle-opacity', ids === null ? 0.8 : ['case', matched, 0.95, 0.25]);
}

/**
 * A footprint is one of the ids: a `match` (a lookup table in MapLibre, so 40,000 ids cost
 * what 100 do) rather than `in` over a literal list, which is searched for every footprint.
 */
export function isMatch(ids: readonly number[]): ExpressionSpecification {
  if (ids.length === 0) return NOTHING;
  return ['match', ['get', 'id'], [...ids], true, false] as ExpressionSpecification;
}

export function showSelected(map: MapLibre, id: number | null): void {
  if (!map.getLayer(LAYERS.selectedFill)) return;
  const filter: ExpressionSpecification = id === null ? NOTHING : ['==', ['get', 'id'], id];
  map.setFilter(LAYERS.selectedFill, filter);
  map.setFilter(LAYERS.selectedLine, filter);
}

/** The ids of footprints drawn at a point of the map's canvas. */
export function featureIdsAt(map: MapLibre, point: { x: number; y: number }): number[] {
  const hits = map.queryRenderedFeatures([point.x, point.y], { layers: [LAYERS.fill] });
  return [...new Set(hits.map((f) => Number(f.properties.id)).filter(Number.isFinite))];
}

export function geometryBounds(geometries: readonly Geometry[]): [number, number, number, number] | null {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const g of geometries) {
    for (const polygon of g.coordinates) {
      for (const [x, y] of polygon[0] ?? []) {
        minX = Math.min(minX, x!); maxX = Math.max(maxX, x!);
        minY = Math.min(minY, y!); maxY = Math.max(maxY, y!);
      }
    }
  }
  return Number.isFinite(minX) ? [minX, minY, maxX, maxY] : null;
}

export function currentView(map: MapLibre): View {
  const { lng, lat } = map.getCenter();
  return { zoom: map.getZoom(), lat, lon: lng };
}
