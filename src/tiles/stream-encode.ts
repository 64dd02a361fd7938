// Crowded tiles hold thousands of footprints. They are made at import from rows read one at
// a time and written straight into the tile's bytes, so memory follows the tile's size, not
// the catalogue's (geojson-vt, used for tiles made on request, holds every footprint given).
// vt-pbf writes the layer from a lazy one that projects and clips each footprint as asked.
import vtpbf from 'vt-pbf';
import type { TileFeature } from './encode.js';
import { TILE_EXTENT, TILE_LAYER, type TileAddress } from './grid.js';
import { tileRings, type TileRing } from './tile-geometry.js';

interface LazyFeature {
  id: number;
  type: 3;
  properties: Record<string, string | number | null>;
  loadGeometry(): TileRing[];
}

/** The tile's bytes from footprints met one at a time, or null when none lies in the tile. */
export function encodeStreamed(tile: TileAddress, features: Iterator<TileFeature>): Buffer | null {
  const layer = lazyLayer(tile, features);
  const bytes = vtpbf.fromVectorTileJs({ layers: { [TILE_LAYER]: layer } });
  return layer.written === 0 ? null : Buffer.from(bytes);
}

/**
 * vt-pbf loops `for (i = 0; i < layer.length; i++) layer.feature(i)`, reading `length` on
 * every turn: the getter looks one footprint ahead, skipping those that clip to nothing.
 */
function lazyLayer(tile: TileAddress, features: Iterator<TileFeature>) {
  let pending = nextInTile(tile, features);
  let written = 0;
  return {
    version: 2,
    name: TILE_LAYER,
    extent: TILE_EXTENT,
    get written() {
      return written;
    },
    get length() {
      return pending === null ? written : written + 1;
    },
    feature(): LazyFeature {
      const feature = pending!;
      pending = nextInTile(tile, features);
      written += 1;
      return feature;
    },
  };
}

function nextInTile(tile: TileAddress, features: Iterator<TileFeature>): LazyFeature | null {
  for (let next = features.next(); !next.done; next = features.next()) {
    const rings = tileRings(next.value.geometry, tile);
    if (rings.length > 0) return lazyFeature(next.value, rings);
  }
  return null;
}

function lazyFeature(feature: TileFeature, rings: TileRing[]): LazyFeature {
  const properties = { id: feature.id, feature_type: feature.feature_type, category: feature.category, category_id: feature.category_id, b_name: feature.b_name };
  return { id: feature.id, type: 3, properties, loadGeometry: () => rings };
}
