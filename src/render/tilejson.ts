// /tiles/features.json: the footprints' tileset as TileJSON 3.0 (what MapLibre, Mapbox GL,
// Leaflet plugins and QGIS read as a vector source `url`): the tile URL template, bounds,
// a centre to open at, the zooms, and each layer's fields (tiles/layers.ts).
import { TILES_TEMPLATE_PATH } from '../constants.js';
import { MAX_TILE_ZOOM } from '../tiles/grid.js';
import { TILE_LAYERS } from '../tiles/layers.js';

/** Web mercator's limits: an empty catalogue's bounds. */
const WORLD: [number, number, number, number] = [-180, -85.0511, 180, 85.0511];

export interface TileJson {
  tilejson: '3.0.0';
  name: string;
  description: string;
  scheme: 'xyz';
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds: [number, number, number, number];
  center: [number, number, number];
  vector_layers: { id: string; description: string; minzoom: number; maxzoom: number; fields: Record<string, string> }[];
}

export function renderTileJson(baseUrl: string, extent: [number, number, number, number] | null): TileJson {
  const bounds = extent ?? WORLD;
  return {
    tilejson: '3.0.0',
    name: 'heritage-api footprints',
    description: 'The footprint of every feature of the catalogue: polygons from 2 pixels across, smaller footprints as counted points.',
    scheme: 'xyz',
    tiles: [`${baseUrl}${TILES_TEMPLATE_PATH}`],
    minzoom: 0,
    maxzoom: MAX_TILE_ZOOM,
    bounds,
    center: [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, extent === null ? 0 : zoomShowing(bounds)],
    vector_layers: TILE_LAYERS.map(({ id, description, minzoom, maxzoom, fields }) => ({
      id, description, minzoom, maxzoom,
      fields: Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.type])),
    })),
  };
}

/** The deepest zoom at which the bounds' longitudes fit in one 512-pixel view (MapLibre's tile size), at most 16. */
export function zoomShowing([minLon, , maxLon]: readonly [number, number, number, number]): number {
  const width = Math.max(maxLon - minLon, 1e-9);
  return Math.max(0, Math.min(16, Math.floor(Math.log2(360 / width))));
}
