// OGC API – Tiles for the `features` collection: its list of tilesets (one, in WebMercatorQuad),
// the tileset's metadata (a templated link to /tiles/features/{z}/{x}/{y}.mvt, bounds,
// layers and their fields from tiles/layers.ts), and the tile matrix set's definition
// (WebMercatorQuad, in OGC 17-083r4's encoding and 17-083r2's, computed: 256-pixel tiles,
// zooms 0 to 24).
import { CONTENT_TYPE_JSON, CONTENT_TYPE_MVT, TILEJSON_PATH, TILES_PREFIX } from '../../constants.js';
import {
  CRS84, EPSG_3857, GEODATA_REL, OGC_PATHS, TILED_COLLECTION, TILING_SCHEME_REL, WEB_MERCATOR_QUAD,
} from '../../ogc/paths.js';
import { TILE_LAYERS } from '../../tiles/layers.js';
import { zoomShowing } from '../tilejson.js';
import { link, type Link } from './links.js';

const TMS_URI = `http://www.opengis.net/def/tilematrixset/OGC/1.0/${WEB_MERCATOR_QUAD}`;
/** Half the web-mercator world's width in metres, and the scale and cell size of zoom 0 (256-pixel tiles, 0.28 mm pixels). */
const HALF_WORLD = 20037508.3427892;
const SCALE_0 = 559082264.028717;
const CELL_0 = 156543.033928041;
const TMS_LEVELS = 25;
const WORLD_CRS84: [number, number, number, number] = [-180, -85.0511287798066, 180, 85.0511287798066];

function tilesetSummary(baseUrl: string) {
  const url = (path: string) => `${baseUrl}${path}`;
  return {
    title: 'The features\' footprints',
    dataType: 'vector' as const,
    crs: EPSG_3857,
    tileMatrixSetURI: TMS_URI,
    links: [
      link(url(OGC_PATHS.tileset(TILED_COLLECTION, WEB_MERCATOR_QUAD)), 'self', CONTENT_TYPE_JSON, 'The tileset'),
      link(url(OGC_PATHS.tileMatrixSet(WEB_MERCATOR_QUAD)), TILING_SCHEME_REL, CONTENT_TYPE_JSON, 'Its tile matrix set'),
    ],
  };
}

export function renderTilesets(baseUrl: string): { links: Link[]; tilesets: ReturnType<typeof tilesetSummary>[] } {
  return {
    links: [
      link(`${baseUrl}${OGC_PATHS.tilesets(TILED_COLLECTION)}`, 'self', CONTENT_TYPE_JSON, 'This document'),
      link(`${baseUrl}${OGC_PATHS.collection(TILED_COLLECTION)}`, 'collection', CONTENT_TYPE_JSON, 'The collection tiled'),
    ],
    tilesets: [tilesetSummary(baseUrl)],
  };
}

export function renderTileset(baseUrl: string, bbox: [number, number, number, number] | null) {
  const url = (path: string) => `${baseUrl}${path}`;
  const [minLon, minLat, maxLon, maxLat] = bbox ?? WORLD_CRS84;
  const summary = tilesetSummary(baseUrl);
  const tile = link(`${url(TILES_PREFIX)}{tileMatrix}/{tileCol}/{tileRow}.mvt`, 'item', CONTENT_TYPE_MVT, 'A tile (Mapbox Vector Tile)');
  return {
    ...summary,
    description: TILE_LAYERS.map((layer) => `${layer.id}: ${layer.description}`).join(' '),
    mediaTypes: [CONTENT_TYPE_MVT],
    boundingBox: { lowerLeft: [minLon, minLat], upperRight: [maxLon, maxLat], crs: CRS84 },
    centerPoint: { coordinates: [(minLon + maxLon) / 2, (minLat + maxLat) / 2], crs: CRS84, tileMatrix: String(bbox === null ? 0 : zoomShowing([minLon, minLat, maxLon, maxLat])) },
    layers: TILE_LAYERS.map((layer) => ({
      id: layer.id,
      description: layer.description,
      dataType: 'vector' as const,
      geometryDimension: layer.geometryDimension,
      minTileMatrix: String(layer.minzoom),
      maxTileMatrix: String(layer.maxzoom),
      propertiesSchema: {
        type: 'object',
        properties: Object.fromEntries(Object.entries(layer.fields).map(([name, field]) => [name, { type: field.type === 'Number' ? 'integer' : 'string', description: field.description }])),
      },
      links: [link(url(OGC_PATHS.collection(TILED_COLLECTION)), GEODATA_REL, CONTENT_TYPE_JSON, 'The collection')],
    })),
    links: [
      ...summary.links,
      { ...tile, templated: true },
      link(url(OGC_PATHS.collection(TILED_COLLECTION)), GEODATA_REL, CONTENT_TYPE_JSON, 'The collection tiled'),
      link(url(TILEJSON_PATH), 'alternate', CONTENT_TYPE_JSON, 'The same tileset as TileJSON 3.0'),
    ],
  };
}

export function renderTileMatrixSets(baseUrl: string) {
  return {
    links: [link(`${baseUrl}${OGC_PATHS.tileMatrixSets}`, 'self', CONTENT_TYPE_JSON, 'This document')],
    tileMatrixSets: [{
      id: WEB_MERCATOR_QUAD,
      title: 'Google Maps Compatible for the World',
      uri: TMS_URI,
      crs: EPSG_3857,
      links: [link(`${baseUrl}${OGC_PATHS.tileMatrixSet(WEB_MERCATOR_QUAD)}`, TILING_SCHEME_REL, CONTENT_TYPE_JSON, 'Its definition')],
    }],
  };
}

/**
 * WebMercatorQuad in both encodings at once, each reader taking its own keys: OGC 17-083r4
 * (TMS 2.0: `id`, `crs`, `tileMatrices`), and after it OGC 17-083r2 (TMS 1.0: `type`,
 * `identifier`, `supportedCRS`, `tileMatrix`, the bounding box's `lowerCorner` and
 * `upperCorner`), which GDAL up to 3.6 alone parses (gcore/tilematrixset.cpp): a document
 * without `"identifier"` and `"tileMatrix"` (or `"TileMatrixSetType"`) it takes for the name of
 * a set, looks up `tms_<document>.json` among its data files, overflows CPLFormFilename's
 * buffer ("Destination buffer too small") and finds none ("Invalid tiling matrix set name").
 * Neither standard's schema forbids the other's keys.
 */
export function renderWebMercatorQuad() {
  const title = 'Google Maps Compatible for the World';
  const levels = Array.from({ length: TMS_LEVELS }, (_, z) => ({
    id: String(z),
    scaleDenominator: SCALE_0 / 2 ** z,
    cellSize: CELL_0 / 2 ** z,
    origin: [-HALF_WORLD, HALF_WORLD],
    tiles: 2 ** z,
  }));
  return {
    id: WEB_MERCATOR_QUAD,
    title,
    uri: TMS_URI,
    crs: EPSG_3857,
    orderedAxes: ['X', 'Y'],
    wellKnownScaleSet: 'http://www.opengis.net/def/wkss/OGC/1.0/GoogleMapsCompatible',
    boundingBox: {
      lowerLeft: [-HALF_WORLD, -HALF_WORLD], upperRight: [HALF_WORLD, HALF_WORLD], crs: EPSG_3857,
      type: 'BoundingBoxType', lowerCorner: [-HALF_WORLD, -HALF_WORLD], upperCorner: [HALF_WORLD, HALF_WORLD],
    },
    tileMatrices: levels.map((m) => ({
      id: m.id,
      scaleDenominator: m.scaleDenominator,
      cellSize: m.cellSize,
      cornerOfOrigin: 'topLeft' as const,
      pointOfOrigin: m.origin,
      tileWidth: 256,
      tileHeight: 256,
      matrixWidth: m.tiles,
      matrixHeight: m.tiles,
    })),
    type: 'TileMatrixSetType',
    identifier: WEB_MERCATOR_QUAD,
    supportedCRS: EPSG_3857,
    tileMatrix: levels.map((m) => ({
      type: 'TileMatrixType',
      identifier: m.id,
      scaleDenominator: m.scaleDenominator,
      topLeftCorner: m.origin,
      tileWidth: 256,
      tileHeight: 256,
      matrixWidth: m.tiles,
      matrixHeight: m.tiles,
    })),
  };
}
