// A feature's geometry beyond its shape (schema.ts): the closed-ring rule, and the promotion
// of a Polygon to the MultiPolygon the rest of the service works with. Numbers are only
// ever copied, never computed, so they stay exact.
import type { MultiPolygon, PolygonCoordinates, Position } from './format.js';
import type { FileGeometry } from './schema.js';

/** A position's ranges, [-limit, limit]. */
export const LONGITUDE_LIMIT = 180;
export const LATITUDE_LIMIT = 90;

const within = (value: unknown, limit: number) => typeof value === 'number' && value >= -limit && value <= limit;

/** Two finite numbers within the ranges (1e400 is Infinity, a problem of its own). */
function isPosition(value: unknown): value is Position {
  return Array.isArray(value) && value.length === 2 && within(value[0], LONGITUDE_LIMIT) && within(value[1], LATITUDE_LIMIT);
}

/**
 * False only for a ring that is otherwise well formed and whose last position differs from
 * its first: a short ring or a bad first or last position is already a problem of its own.
 */
export function isClosedRing(ring: unknown[]): boolean {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (ring.length < 4 || !isPosition(first) || !isPosition(last)) return true;
  return first[0] === last[0] && first[1] === last[1];
}

export function unclosedRingMessage(ring: unknown[]): string {
  return `ring is not closed: the first position ${JSON.stringify(ring[0])} differs from the last ${JSON.stringify(ring[ring.length - 1])}`;
}

/** Index access, not destructuring: this runs for every position of the file. */
function copyPolygon(polygon: PolygonCoordinates): PolygonCoordinates {
  return polygon.map((ring) => ring.map((position): Position => [position[0], position[1]]));
}

/** A fresh MultiPolygon; a Polygon becomes a MultiPolygon of that one polygon. */
export function toMultiPolygon(geometry: FileGeometry): MultiPolygon {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return { type: 'MultiPolygon', coordinates: polygons.map(copyPolygon) };
}
