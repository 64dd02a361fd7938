// Mapbox Vector Tiles from footprints, in JavaScript (the SQLite store's encoder; PostGIS
// encodes its own): geojson-vt projects, clips and simplifies, vt-pbf writes the bytes.
import GeoJSONVT from 'geojson-vt';
import vtpbf from 'vt-pbf';
import type { Feature as GeoJsonFeature, MultiPolygon as GeoJsonMultiPolygon } from 'geojson';
import type { MultiPolygon } from '../catalogue/format.js';
import { MAX_TILE_ZOOM, TILE_BUFFER, TILE_EXTENT, TILE_LAYER, type TileAddress } from './grid.js';

/** What a tile carries of a feature: its footprint and the properties a map styles by. */
export interface TileFeature {
  id: number;
  feature_type: string;
  b_name: string | null;
  /** The first category's name and id, null when the feature has none. */
  category: string | null;
  category_id: number | null;
  geometry: MultiPolygon;
}

const OPTIONS = {
  maxZoom: MAX_TILE_ZOOM,
  // Only the top tile is indexed up front; a tile asked for is reached by drilling down.
  indexMaxZoom: 0,
  // Simplify to one tile unit (the default, 3, drops small footprints PostGIS keeps).
  tolerance: 1,
  extent: TILE_EXTENT,
  buffer: TILE_BUFFER,
};

/** Makes tiles of these footprints: the bytes, or null when none reaches into the tile. */
export function tileEncoder(features: readonly TileFeature[]): (tile: TileAddress) => Buffer | null {
  if (features.length === 0) return () => null;
  const index = new GeoJSONVT({ type: 'FeatureCollection', features: features.map(toGeoJson) }, OPTIONS);
  return (tile) => encode(index, tile);
}

function encode(index: GeoJSONVT, { z, x, y }: TileAddress): Buffer | null {
  const tile = index.getTile(z, x, y);
  if (!tile || tile.features.length === 0) return null;
  return Buffer.from(vtpbf.fromGeojsonVt({ [TILE_LAYER]: tile }, { version: 2, extent: TILE_EXTENT }));
}

function toGeoJson(feature: TileFeature): GeoJsonFeature<GeoJsonMultiPolygon> {
  const properties: Record<string, string | number> = { id: feature.id, feature_type: feature.feature_type };
  if (feature.category !== null) properties.category = feature.category;
  if (feature.category_id !== null) properties.category_id = feature.category_id;
  if (feature.b_name !== null) properties.b_name = feature.b_name;
  return { type: 'Feature', id: feature.id, properties, geometry: feature.geometry as GeoJsonMultiPolygon };
}
