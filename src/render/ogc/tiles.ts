// OGC API – Tiles for the `features` collection: its list of tilesets (one, in WebMercatorQuad),
// the tileset's metadata (a templated link to /tiles/features/{z}/{x}/{y}.mvt, bounds,
// layers and their fields from tiles/layers.ts), and the tile matrix set's definition
// (OGC 17-083r4's WebMercatorQuad, computed: 256-pixel tiles, zooms 0 to 24).
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

export function renderWebMercatorQuad() {
  return {
    id: WEB_MERCATOR_QUAD,
    title: 'Google Maps Compatible for the World',
    uri: TMS_URI,
    crs: EPSG_3857,
    orderedAxes: ['X', 'Y'],
    wellKnownScaleSet: 'http://www.opengis.net/def/wkss/OGC/1.0/GoogleMapsCompatible',
    boundingBox: { lowerLeft: [-HALF_WORLD, -HALF_WORLD], upperRight: [HALF_WORLD, HALF_WORLD], crs: EPSG_3857 },
    tileMatrices: Array.from({ length: TMS_LEVELS }, (_, z) => ({
      id: String(z),
      scaleDenominator: SCALE_0 / 2 ** z,
      cellSize: CELL_0 / 2 ** z,
      cornerOfOrigin: 'topLeft' as const,
      pointOfOrigin: [-HALF_WORLD, HALF_WORLD],
      tileWidth: 256,
      tileHeight: 256,
      matrixWidth: 2 ** z,
      matrixHeight: 2 ** z,
    })),
  };
}
