// The coordinate reference systems the OGC face offers (OGC API – Features Part 2, CRS by
// reference), declared once: URI, axis order, how to reach it from the stored CRS84, the
// decimals written, where coordinates are accepted, and how files name it. Footprints are
// stored in CRS84; every other CRS is a transformation of them on the way out (`crs`) or of
// the request's box and filter geometries on the way in (`bbox-crs`, `filter-crs`).
import { createRequire } from 'node:module';
import type proj4 from 'proj4';
import { CRS84, EPSG_3857 } from './paths.js';

const EPSG_4326 = 'http://www.opengis.net/def/crs/EPSG/0/4326';
const EPSG_27700 = 'http://www.opengis.net/def/crs/EPSG/0/27700';

/** east-north: x is longitude or easting; north-east: latitude first (EPSG:4326's own order). */
type AxisOrder = 'east-north' | 'north-east';

export interface OfferedCrs {
  readonly uri: string;
  readonly axis: AxisOrder;
  /**
   * The PROJ string of the target (proj4js), from longitude and latitude on WGS 84; null:
   * longitude and latitude themselves (CRS84, EPSG:4326), written as stored.
   */
  readonly proj: string | null;
  /** Decimals of the coordinates written; null: the stored ones, untouched. */
  readonly decimals: number | null;
  /** Where coordinates of a request are accepted, [minX, minY, maxX, maxY] in the CRS's axis order. */
  readonly bounds: readonly [number, number, number, number];
  /** The EPSG code files carry (FlatGeobuf's header, GeoPackage's srs_id): files are always x east, y north. */
  readonly epsg: number;
  /** GeoPackage's gpkg_spatial_ref_sys row: name and WKT definition (GDAL names the CRS from its EPSG code). */
  readonly srsName: string;
  readonly definition: string;
  readonly description: string;
  /** A CSV's columns of the representative point. */
  readonly pointColumns: readonly [string, string];
}

const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],' +
  'PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]';

/**
 * EPSG:27700 with the Helmert transformation EPSG:1314 (OSGB36 to WGS 84 (6)). The Airy
 * ellipsoid by its a and 1/f, as PROJ defines `+ellps=airy`: proj4js's own `airy` rounds b
 * to the millimetre, which moved northings 0.7 mm from PROJ's. proj4js's `tmerc` is the
 * Poder/Engsager series, PROJ's default (test/unit/crs.test.ts compares them across Britain).
 */
const BNG_PROJ = '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +a=6377563.396 +rf=299.3249646 '
  + '+towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +units=m +no_defs';
/** Web Mercator: WGS 84 longitude and latitude on the sphere of radius a (no datum shift: `@null`). */
const WEB_MERCATOR_PROJ = '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs';
const LON_LAT_PROJ = '+proj=longlat +datum=WGS84 +no_defs';
const MERCATOR_LIMIT = 20037508.342789244;

/** CRS84: the default, and the CRS footprints are stored in. */
export const DEFAULT_CRS: OfferedCrs = {
  uri: CRS84, axis: 'east-north', proj: null, decimals: null, bounds: [-180, -90, 180, 90],
  epsg: 4326, srsName: 'WGS 84 geodetic', definition: WGS84_WKT, pointColumns: ['lon', 'lat'],
  description: 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid',
};

/** The offered CRSs, CRS84 first. */
export const OFFERED_CRS: readonly OfferedCrs[] = [
  DEFAULT_CRS,
  {
    uri: EPSG_4326, axis: 'north-east', proj: null, decimals: null, bounds: [-90, -180, 90, 180],
    epsg: 4326, srsName: 'WGS 84 geodetic', definition: WGS84_WKT, pointColumns: ['lon', 'lat'],
    description: 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid',
  },
  {
    uri: EPSG_3857, axis: 'east-north', proj: WEB_MERCATOR_PROJ, decimals: 3, bounds: [-MERCATOR_LIMIT, -MERCATOR_LIMIT, MERCATOR_LIMIT, MERCATOR_LIMIT],
    epsg: 3857, srsName: 'WGS 84 / Pseudo-Mercator', pointColumns: ['x', 'y'], description: 'Web Mercator: easting and northing in metres',
    definition: 'PROJCS["WGS 84 / Pseudo-Mercator",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],'
      + 'PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]],PROJECTION["Mercator_1SP"],'
      + 'PARAMETER["central_meridian",0],PARAMETER["scale_factor",1],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1,AUTHORITY["EPSG","9001"]],'
      + 'AXIS["Easting",EAST],AXIS["Northing",NORTH],AUTHORITY["EPSG","3857"]]',
  },
  {
    // Bounds: EPSG's area of use (49.75°N to 61.01°N, 9°W to 2.01°E) with 100 km around it.
    uri: EPSG_27700, axis: 'east-north', proj: BNG_PROJ, decimals: 3, bounds: [-200000, -100000, 800000, 1350000],
    epsg: 27700, srsName: 'OSGB36 / British National Grid', pointColumns: ['x', 'y'], description: 'British National Grid: easting and northing in metres',
    definition: 'PROJCS["OSGB36 / British National Grid",GEOGCS["OSGB36",DATUM["Ordnance_Survey_of_Great_Britain_1936",SPHEROID["Airy 1830",6377563.396,299.3249646,AUTHORITY["EPSG","7001"]],'
      + 'AUTHORITY["EPSG","6277"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4277"]],'
      + 'PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",49],PARAMETER["central_meridian",-2],PARAMETER["scale_factor",0.9996012717],'
      + 'PARAMETER["false_easting",400000],PARAMETER["false_northing",-100000],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AXIS["Easting",EAST],AXIS["Northing",NORTH],AUTHORITY["EPSG","27700"]]',
  },
];

export const OFFERED_CRS_URIS: readonly string[] = OFFERED_CRS.map((c) => c.uri);

/** The offered CRS of a URI, or undefined. */
export function offeredCrs(uri: string): OfferedCrs | undefined {
  return OFFERED_CRS.find((c) => c.uri === uri);
}

/** How a refusal names what is offered. */
export const OFFERED_CRS_WORDS = `one of the offered coordinate reference systems: ${OFFERED_CRS_URIS.join(', ')}`;

export type XY = readonly [number, number];
type Converter = { forward(p: number[]): number[]; inverse(p: number[]): number[] };
/**
 * proj4js's converter of each projected CRS, made once (proj4 parses the string) at the first
 * use of one: proj4 is CommonJS, so require loads it then. Its 300 KB bundle took 55 ms of CPU
 * to load, which `apply` (a feature's stored text is always CRS84) and `serve`'s start paid.
 */
let converters: ReadonlyMap<string, Converter> | undefined;

function makeConverters(): ReadonlyMap<string, Converter> {
  const make: typeof proj4 = createRequire(import.meta.url)('proj4');
  return new Map(OFFERED_CRS.flatMap((c) => (c.proj === null ? [] : [[c.proj, make(LON_LAT_PROJ, c.proj)] as const])));
}

function converter(proj: string): Converter {
  converters ??= makeConverters();
  const made = converters.get(proj);
  if (made === undefined) throw new Error(`no converter for ${proj}: not a CRS of OFFERED_CRS`);
  return made;
}

export const rounder = (decimals: number | null) => (decimals === null ? (v: number) => v : (v: number) => Number(v.toFixed(decimals)));

/** CRS84 longitude, latitude → the CRS's coordinates, in its axis order (`order`: or always x east). */
export function fromCrs84(crs: OfferedCrs, order: 'crs' | 'east-north' = 'crs'): (lon: number, lat: number) => XY {
  const round = rounder(crs.decimals);
  const swap = crs.axis === 'north-east' && order === 'crs';
  if (crs.proj === null) return swap ? (lon, lat) => [lat, lon] : (lon, lat) => [lon, lat];
  const { forward } = converter(crs.proj);
  return (lon, lat) => {
    const [x = NaN, y = NaN] = forward([lon, lat]);
    return [round(x), round(y)];
  };
}

/** The CRS's coordinates (its axis order) → CRS84 longitude and latitude; null when outside its bounds or not finite. */
export function toCrs84(crs: OfferedCrs): (a: number, b: number) => XY | null {
  const [minX, minY, maxX, maxY] = crs.bounds;
  const inverse = crs.proj === null ? null : converter(crs.proj).inverse;
  return (a, b) => {
    if (!(a >= minX && a <= maxX && b >= minY && b <= maxY)) return null;
    if (inverse === null) return crs.axis === 'north-east' ? [b, a] : [a, b];
    const [lon = NaN, lat = NaN] = inverse([a, b]);
    return Number.isFinite(lon) && Number.isFinite(lat) ? [lon, lat] : null;
  };
}

/** A box of the CRS (min and max of each axis, in its order) as CRS84 [west, south, east, north], when it is one. */
interface BoxRegion {
  /** The corners of the CRS84 box when the CRS's box is one (CRS84, EPSG:4326), else null. */
  readonly box: readonly [number, number, number, number] | null;
  /** Otherwise the box's outline in CRS84: each edge cut in steps (edgeSteps), closed. Null: outside the CRS's bounds. */
  readonly ring: readonly XY[] | null;
}

/** At most this many steps per edge of a projected box: 4 × 120 + 1 = 481 positions, under the 500 a filter may hold. */
const MAX_EDGE_STEPS = 120;
/** How far (m) a step's chord may stray from the edge it stands for. */
const EDGE_TOLERANCE_M = 0.005;
const METRES_PER_DEGREE = 111_320;

/** Metres between two longitude, latitude positions, near enough for a tolerance (equirectangular). */
function roughMetres([lon0, lat0]: XY, [lon1, lat1]: XY): number {
  const x = (lon1 - lon0) * Math.cos((((lat0 + lat1) / 2) * Math.PI) / 180);
  return Math.hypot(x, lat1 - lat0) * METRES_PER_DEGREE;
}

/**
 * The steps an edge is cut in: its straight line in the CRS is a curve in longitude and
 * latitude, and a chord strays from a curve as the square of its length, so the stray of the
 * whole edge's chord at its middle tells how many steps keep each within EDGE_TOLERANCE_M
 * (a 1.5 km edge: 4; 50 km: about 70; a 500 km edge reaches MAX_EDGE_STEPS, ≈ 0.5 m).
 */
function edgeSteps(back: (a: number, b: number) => XY | null, [a0, b0]: XY, [a1, b1]: XY): number {
  const start = back(a0, b0);
  const end = back(a1, b1);
  const middle = back((a0 + a1) / 2, (b0 + b1) / 2);
  if (start === null || end === null || middle === null) return 1;
  const stray = roughMetres(middle, [(start[0] + end[0]) / 2, (start[1] + end[1]) / 2]);
  return Math.min(MAX_EDGE_STEPS, Math.max(1, Math.ceil(Math.sqrt(stray / EDGE_TOLERANCE_M))));
}

export function boxRegion(crs: OfferedCrs, [minA, minB, maxA, maxB]: readonly [number, number, number, number]): BoxRegion {
  if (crs.proj === null) return { box: crs.axis === 'north-east' ? [minB, minA, maxB, maxA] : [minA, minB, maxA, maxB], ring: null };
  const back = toCrs84(crs);
  const [sw, se, ne, nw]: [XY, XY, XY, XY] = [[minA, minB], [maxA, minB], [maxA, maxB], [minA, maxB]];
  const outline: XY[] = [];
  for (const [from, to] of [[sw, se], [se, ne], [ne, nw], [nw, sw]] as const) {
    const steps = edgeSteps(back, from, to);
    for (let k = 0; k < steps; k++) outline.push([from[0] + ((to[0] - from[0]) * k) / steps, from[1] + ((to[1] - from[1]) * k) / steps]);
  }
  outline.push(sw);
  const ring = outline.map(([a, b]) => back(a, b));
  return { box: null, ring: ring.every((p): p is XY => p !== null) ? ring : null };
}

type Rings = readonly (readonly (readonly number[])[])[];

/** A MultiPolygon's JSON text with each position moved by `move`. */
function moveFootprint(text: string, move: (a: number, b: number) => XY): { type: string; coordinates: number[][][][] } {
  const geometry = JSON.parse(text) as { type: string; coordinates: readonly Rings[] };
  return { type: geometry.type, coordinates: geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(([a = NaN, b = NaN]) => [...move(a, b)]))) };
}

/** A stored footprint's JSON text (a MultiPolygon) in the CRS: its polygons' positions transformed. */
export function footprintIn(crs: OfferedCrs, text: string, order: 'crs' | 'east-north' = 'crs'): { type: string; coordinates: number[][][][] } {
  // Longitude and latitude in their stored order (CRS84; EPSG:4326 in a file): the text as it is, without a copy of each position.
  if (crs.proj === null && (crs.axis === 'east-north' || order === 'east-north')) return JSON.parse(text) as { type: string; coordinates: number[][][][] };
  return moveFootprint(text, fromCrs84(crs, order));
}
