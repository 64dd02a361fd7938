// The layers of a footprint tile and their fields, declared once: the encoder writes them
// (in this order, from the zoom each is carried), the TileJSON (render/tilejson.ts) and OGC
// tileset metadata (render/ogc/tiles.ts) describe them, and an apply edits only the tiles
// whose zoom carries a value that changed (fieldsCarriedAt).
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import { describeLevels } from './budget.js';
import { FULL_PROPERTIES_ZOOM, MAX_TILE_ZOOM, TILE_LAYER, TILE_POINT_LAYER } from './grid.js';

export interface TileField {
  type: 'Number' | 'String';
  description: string;
  /** Carried from this zoom on (absent: at every zoom of the layer). */
  minzoom?: number;
  /** Not a feature's own value but counted per cell of the `points` layer. */
  perCell?: true;
}

export interface TileLayerInfo {
  id: string;
  description: string;
  /** 0: points, 2: surfaces (OGC's geometryDimension). */
  geometryDimension: 0 | 2;
  minzoom: number;
  maxzoom: number;
  fields: Record<string, TileField>;
}

export const POLYGON_LAYER: TileLayerInfo = {
  id: TILE_LAYER,
  description: `Each feature's footprint at least 2 pixels across (256 pixels to a tile), clipped, simplified to an eighth of a pixel; the feature's id is the MVT feature id too. Below zoom ${FULL_PROPERTIES_ZOOM} only id and category_id. ${describeLevels()}`,
  geometryDimension: 2,
  minzoom: 0,
  maxzoom: MAX_TILE_ZOOM,
  fields: {
    id: { type: 'Number', description: 'The feature id (/api/v1/features/{id}/)' },
    [F.type]: { type: 'String', description: `The feature type (from zoom ${FULL_PROPERTIES_ZOOM})`, minzoom: FULL_PROPERTIES_ZOOM },
    category: { type: 'String', description: `The first category's name (from zoom ${FULL_PROPERTIES_ZOOM}; absent when it has none)`, minzoom: FULL_PROPERTIES_ZOOM },
    category_id: { type: 'Number', description: 'The first category\'s id (absent when it has none)' },
    [F.name]: { type: 'String', description: `The building's name (from zoom ${FULL_PROPERTIES_ZOOM}; absent when it has none)`, minzoom: FULL_PROPERTIES_ZOOM },
  },
};

export const POINT_LAYER: TileLayerInfo = {
  id: TILE_POINT_LAYER,
  description: 'Footprints under 2 pixels across (or under the size a tile kept within its budget draws): one point per 2 × 2 pixel cell (larger in such a tile), at the centre of the footprint with the lowest id in it, standing for every footprint of the cell.',
  geometryDimension: 0,
  minzoom: 0,
  maxzoom: MAX_TILE_ZOOM,
  fields: {
    id: { type: 'Number', description: 'The lowest feature id of the cell (also the MVT feature id)' },
    count: { type: 'Number', description: 'How many footprints the point stands for', perCell: true },
    category_id: { type: 'Number', description: 'That feature\'s first category id (absent when it has none)' },
  },
};

export const TILE_LAYERS: readonly TileLayerInfo[] = [POLYGON_LAYER, POINT_LAYER];

/** A layer's fields a tile of zoom z carries, in the order they are written. */
export function fieldsAt(layer: TileLayerInfo, z: number): [string, TileField][] {
  return Object.entries(layer.fields).filter(([, field]) => (field.minzoom ?? layer.minzoom) <= z);
}

/**
 * The feature values (besides its footprint) that some layer of a zoom-z tile carries: a
 * change of none of them, the footprint kept, leaves every tile of that zoom as it was.
 */
export function fieldsCarriedAt(z: number): string[] {
  return [...new Set(TILE_LAYERS.flatMap((layer) => fieldsAt(layer, z).filter(([, field]) => !field.perCell).map(([name]) => name)))];
}
