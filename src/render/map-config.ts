// What the map page starts from (/map/config.json): the catalogue's extent, the tile URL
// template, the optional base map and the legend's categories with absolute thumbnails and
// their colours (palette.ts, by rank among all categories: the demo's thumbnails agree).
import { TILES_TEMPLATE_PATH } from '../constants.js';
import { categoryColour } from '../palette.js';
import type { Overview } from '../store/store.js';
import { mediaUrl } from './media-url.js';

export interface MapConfig {
  extent: [number, number, number, number] | null;
  tiles: string;
  basemap: { kind: 'raster' | 'style'; url: string } | null;
  categories: { id: number; name: string; description: string; thumbnail: string; features: number; colour: string }[];
}

export function renderMapConfig(overview: Overview, baseUrl: string, basemapUrl: string | null): MapConfig {
  return {
    extent: overview.extent,
    tiles: `${baseUrl}${TILES_TEMPLATE_PATH}`,
    basemap: basemapUrl === null ? null : { kind: basemapKind(basemapUrl), url: basemapUrl },
    categories: overview.categories.map(({ rank, ...c }) => ({ ...c, thumbnail: mediaUrl(baseUrl, c.thumbnail), colour: categoryColour(rank) })),
  };
}

/** A template with {z}/{x}/{y} is raster tiles; anything else (config.ts checked: .json) a style. */
export function basemapKind(url: string): 'raster' | 'style' {
  return url.includes('{z}') ? 'raster' : 'style';
}
