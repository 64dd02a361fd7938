// PROJ's cs2cs (Debian's proj-bin, as CI installs it: .ci/run) as the independent reference of
// the CRS tests: the transformations written here as PROJ strings from the EPSG definitions,
// not taken from src/ogc/crs.ts. Tests that need it skip when cs2cs is missing, unless
// HERITAGE_TEST_GDAL=required (CI), like GDAL's.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { Catalogue, Feature, MultiPolygon } from '../../src/catalogue/format.js';
import { generateDemoCatalogue } from '../../src/demo/demo.js';

const run = promisify(execFile);

export const URI = {
  crs84: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
  epsg4326: 'http://www.opengis.net/def/crs/EPSG/0/4326',
  epsg3857: 'http://www.opengis.net/def/crs/EPSG/0/3857',
  epsg27700: 'http://www.opengis.net/def/crs/EPSG/0/27700',
} as const;

const WGS84 = ['+proj=longlat', '+datum=WGS84', '+no_defs'];
/** EPSG:27700 (Airy 1830, tmerc) with EPSG:1314's Helmert (OSGB36 to WGS 84 (6)), as PROJ writes them. */
const BNG = ['+proj=tmerc', '+lat_0=49', '+lon_0=-2', '+k=0.9996012717', '+x_0=400000', '+y_0=-100000', '+ellps=airy',
  '+towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489', '+units=m', '+no_defs'];
/** EPSG:3857 as PROJ defines it. */
const WEB_MERCATOR = ['+proj=webmerc', '+datum=WGS84', '+no_defs'];
export const PROJ_TARGETS = { [URI.epsg27700]: BNG, [URI.epsg3857]: WEB_MERCATOR } as const;
export type ProjectedUri = keyof typeof PROJ_TARGETS;

export function projSkipReason(): string | undefined {
  try {
    execFileSync('cs2cs', [], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const code = (error as { status?: number }).status;
    // cs2cs without arguments prints its usage and exits 1: it is there.
    if (code === 1) return undefined;
    const reason = `no usable cs2cs on the PATH (apt-get install proj-bin): ${(error as Error).message}`;
    if (process.env.HERITAGE_TEST_GDAL === 'required') throw new Error(`HERITAGE_TEST_GDAL=required but ${reason}`);
    return reason;
  }
}

export type XY = [number, number];

/** Longitude, latitude (WGS 84) → the projected CRS's easting, northing, by cs2cs (`inverse`: the other way). */
export async function cs2cs(target: ProjectedUri, positions: readonly XY[], inverse = false): Promise<XY[]> {
  const [from, to] = inverse ? [PROJ_TARGETS[target], WGS84] : [WGS84, PROJ_TARGETS[target]];
  const format = inverse ? '%.12f' : '%.6f';
  const child = run('cs2cs', ['-f', format, ...from, '+to', ...to], { maxBuffer: 256 * 1024 * 1024 });
  child.child.stdin?.end(positions.map(([x, y]) => `${x} ${y}\n`).join(''));
  const { stdout } = await child;
  return stdout.trim().split('\n').map((line) => {
    const [x, y] = line.trim().split(/\s+/).map(Number);
    return [x!, y!];
  });
}

/** Every position of a footprint, in order. */
export function positionsOf(geometry: { coordinates: number[][][][] }): XY[] {
  return geometry.coordinates.flatMap((polygon) => polygon.flatMap((ring) => ring.map(([x, y]) => [x!, y!] as XY)));
}

/** Places across Great Britain the catalogue's copies go to: [longitude, latitude]. */
export const GB_PLACES: readonly XY[] = [
  [-3.1883, 55.9533], // Edinburgh
  [-5.5372, 50.1188], // Penzance, Cornwall
  [-1.1450, 60.1550], // Lerwick, Shetland
  [1.2974, 52.6309], // Norwich
  [-4.1427, 50.3755], // Plymouth
  [-6.3000, 58.2000], // Stornoway, Lewis
];

/**
 * A small demo catalogue of Whitechapel, and copies of its first footprints moved to each of
 * GB_PLACES (new ids, no attachments): footprints from Shetland to Cornwall.
 */
export function britainCatalogue(perPlace = 25): Catalogue {
  const catalogue = generateDemoCatalogue({ scale: 0.05, seed: 7 });
  const models = catalogue.features.slice(0, perPlace);
  const [lon0, lat0] = (models[0]!.geometry.coordinates[0]![0]![0]!) as XY;
  let id = Math.max(...catalogue.features.map((f) => f.id));
  for (const [lon, lat] of GB_PLACES) {
    for (const model of models) {
      const moved: MultiPolygon = {
        type: 'MultiPolygon',
        coordinates: model.geometry.coordinates.map((p) => p.map((r) => r.map(([x, y]) => [Number((x + lon - lon0).toFixed(9)), Number((y + lat - lat0).toFixed(9))] as [number, number]))),
      };
      id += 1;
      const copy: Feature = { ...model, id, site: null, geometry: moved };
      catalogue.features.push(copy);
    }
  }
  return catalogue;
}
