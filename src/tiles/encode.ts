// Mapbox Vector Tiles from footprints, in JavaScript: the SQLite store's one encoder, for a
// tile made on request and for a crowded tile made at import alike (PostGIS encodes its
// own). Footprints are met one at a time and written straight into the tile's bytes, so
// memory follows the tile's size, not the catalogue's: the whole catalogue at zoom 0 too.
// Each footprint is projected, clipped, rounded and wound by tile-geometry.ts (where
// simplification would go); vt-pbf writes the layer from a lazy one.
import { fromVectorTileJs, type VectorTileFeatureLike, type VectorTileLayerLike } from '@maplibre/vt-pbf';
import type { FeatureType, MultiPolygon } from '../catalogue/format.js';
import { TILE_EXTENT, TILE_LAYER, type TileAddress } from './grid.js';
import { tileRings, type TileRing } from './tile-geometry.js';

/** What a tile carries of a feature: its footprint and the properties a map styles by. */
export interface TileFeature {
  id: number;
  feature_type: FeatureType;
  b_name: string | null;
  /** The first category's name and id, null when the feature has none. */
  category: string | null;
  category_id: number | null;
  geometry: MultiPolygon;
}

/** The tile's bytes from footprints met one at a time, or null when none lies in the tile. */
export function encodeTile(tile: TileAddress, features: Iterable<TileFeature>): Buffer | null {
  const layer = new LazyLayer(tile, features[Symbol.iterator]());
  const bytes = fromVectorTileJs({ layers: { [TILE_LAYER]: layer } });
  return layer.written === 0 ? null : Buffer.from(bytes);
}

/**
 * vt-pbf loops `for (i = 0; i < layer.length; i++) layer.feature(i)`, reading `length` on
 * every turn: the getter looks one footprint ahead, skipping those that clip to nothing.
 */
class LazyLayer implements VectorTileLayerLike {
  readonly version = 2;
  readonly name = TILE_LAYER;
  readonly extent = TILE_EXTENT;
  private count = 0;
  private pending: VectorTileFeatureLike | null;

  constructor(
    private readonly tile: TileAddress,
    private readonly features: Iterator<TileFeature>,
  ) {
    this.pending = this.nextInTile();
  }

  /** How many features were handed to vt-pbf. */
  get written(): number {
    return this.count;
  }

  get length(): number {
    return this.pending === null ? this.count : this.count + 1;
  }

  feature(): VectorTileFeatureLike {
    const feature = this.pending;
    if (feature === null) throw new RangeError('The layer has no more features.');
    this.pending = this.nextInTile();
    this.count += 1;
    return feature;
  }

  private nextInTile(): VectorTileFeatureLike | null {
    for (let next = this.features.next(); !next.done; next = this.features.next()) {
      const rings = tileRings(next.value.geometry, this.tile);
      if (rings.length > 0) return tileFeature(next.value, rings);
    }
    return null;
  }
}

/** The properties in this order, a null one left out (as PostGIS's ST_AsMVT does). */
function tileFeature(feature: TileFeature, rings: TileRing[]): VectorTileFeatureLike {
  const properties: Record<string, string | number> = { id: feature.id, feature_type: feature.feature_type };
  if (feature.category !== null) properties.category = feature.category;
  if (feature.category_id !== null) properties.category_id = feature.category_id;
  if (feature.b_name !== null) properties.b_name = feature.b_name;
  return { id: feature.id, type: 3, properties, extent: TILE_EXTENT, loadGeometry: () => rings };
}
