// Longitude and latitude as a request gives them, checked in this one place for every box and
// geometry a request holds (the `bbox` parameter of /api/v1/ and /ogc/, CQL2's BBOX, POINT,
// POLYGON and MULTIPOLYGON): finite and within the ranges the catalogue holds footprints to
// (catalogue/geometry.ts). Beyond them the stores' spatial tests disagree (a ±1e155 polygon
// matched no footprint on SQLite and every one on PostgreSQL), so such a value is refused.
import { LATITUDE_LIMIT, LONGITUDE_LIMIT } from '../catalogue/geometry.js';

/** How messages name the ranges. */
export const LON_LAT_RANGES = `longitude -${LONGITUDE_LIMIT} to ${LONGITUDE_LIMIT} and latitude -${LATITUDE_LIMIT} to ${LATITUDE_LIMIT}`;

/** False for NaN and ±Infinity too. */
export function isLonLat(longitude: number, latitude: number): boolean {
  return Math.abs(longitude) <= LONGITUDE_LIMIT && Math.abs(latitude) <= LATITUDE_LIMIT;
}

/** Each corner in range, west not east of east, south not north of north (no box across the antimeridian). */
export function isLonLatBox(west: number, south: number, east: number, north: number): boolean {
  return isLonLat(west, south) && isLonLat(east, north) && west <= east && south <= north;
}
