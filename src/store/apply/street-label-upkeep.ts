// The streets' labels kept in the store (`street_labels`, one row a street): placed for every
// street by an import, again by an apply for the streets a changed building is part of or
// near (street-labels.ts: a street's labels depend on nothing further). The map
// (/map/streets.json) and the site's pages read them whole (store/map/map-plans.ts): a row
// per street, whatever the number of buildings (1.4 s at scale 100 when every building was
// read for them).
import { isNamedStreet } from '../../catalogue/fields.js';
import { boundingBox } from '../../search/box.js';
import { binder, type Dialect } from '../dialect.js';
import { selectRows, type Plan } from '../read-plans.js';
import { Centres, NEIGHBOURHOOD, groundScale, lookouts, placeStreetLabels } from './street-labels.js';

/** What a load tells as it places them. */
export const STREET_LABELS_STEP = 'street labels';

/** [minLon, minLat, maxLon, maxLat]. */
type Box = [number, number, number, number];

/** A street's buildings: its name and their centres (lon, lat, lon, lat…), by id. */
type Street = { name: string; centres: number[] };


/** Every street's labels placed again (an import, a migration). */
export function* keepAllStreetLabelsPlan(): Plan<void> {
  const streets = yield* streetCentres(null);
  const around = new Centres();
  for (const { centres } of streets.values()) eachCentre(centres, (lon, lat) => around.add(lon, lat));
  yield { sql: 'DELETE FROM street_labels', params: [] };
  for (const [key, street] of streets) yield* writeStreet(key, street, around);
}

/**
 * After an apply: the labels of the streets named (the changed buildings' streets, before and
 * after) and of every street one of whose labels is within NEIGHBOURHOOD of one of the points
 * (the changed buildings' centres, before and after: what its lookouts may count), placed
 * again from the rows as they are now, each counting the buildings around its own lookouts.
 */
export function* keepStreetLabelsPlan(dialect: Dialect, keys: readonly string[], points: readonly (readonly [number, number])[]): Plan<void> {
  if (keys.length === 0 && points.length === 0) return;
  const kept = yield* selectRows<{ street_key: string; labels: string }>({ sql: 'SELECT street_key, labels FROM street_labels', params: [] });
  const near = kept.filter((s) => parseLabels(s.labels).some((label) => points.some(([lon, lat]) => within(reach([label.lon, label.lat]), lon, lat))));
  const affected = [...new Set([...keys, ...near.map((s) => s.street_key)])].sort();
  if (affected.length === 0) return;
  const streets = yield* streetCentres(affected);
  const { bind, params } = binder();
  yield { sql: `DELETE FROM street_labels WHERE street_key IN (${affected.map((k) => bind(k)).join(', ')})`, params };
  for (const [key, street] of streets) {
    const around = new Centres();
    const seen = new Set<number>();
    for (const lookout of lookouts(street.centres)) yield* eachCentreIn(dialect, reach(lookout), seen, (lon, lat) => around.add(lon, lat));
    yield* writeStreet(key, street, around);
  }
}

function parseLabels(text: string): { lon: number; lat: number }[] {
  const labels: unknown = JSON.parse(text);
  return Array.isArray(labels) ? labels : [];
}

/** Each street's centres, by key: of every street (`keys` null) or of those keys. */
function* streetCentres(keys: readonly string[] | null): Plan<Map<string, Street>> {
  const { bind, params } = binder();
  const which = keys === null ? 'f.street_key IS NOT NULL' : `f.street_key IN (${keys.map((k) => bind(k)).join(', ')})`;
  const streets = new Map<string, Street>();
  const each = (row: unknown) => {
    const r = row as { street: string; street_key: string; geometry: string };
    if (!isNamedStreet(r.street)) return;
    const street = streets.get(r.street_key) ?? { name: r.street, centres: [] };
    street.centres.push(...centreOf(r.geometry));
    streets.set(r.street_key, street);
  };
  yield { sql: `SELECT f.street, f.street_key, f.geometry FROM features f WHERE ${which} ORDER BY f.street_key, f.id`, params, each };
  return streets;
}

/** The centres of the buildings on a street whose boxes meet the box, each once (`seen`: ids given before). */
function* eachCentreIn(dialect: Dialect, box: Box, seen: Set<number>, add: (lon: number, lat: number) => void): Plan<void> {
  const { bind, params } = binder();
  const each = (row: unknown) => {
    const r = row as { id: number; geometry: string };
    if (seen.has(Number(r.id))) return;
    seen.add(Number(r.id));
    add(...centreOf(r.geometry));
  };
  yield { sql: `SELECT f.id, f.geometry FROM features f WHERE ${dialect.boxesMeet(box, bind)} AND f.street_key IS NOT NULL`, params, adHoc: true, each };
}

/**
 * A footprint's centre (its box's), from its text as imported: the same numbers on both
 * stores, where the R*Tree's boxes are 32-bit floats rounded outwards and PostGIS's exact.
 */
function centreOf(geometry: string): [number, number] {
  const [minX, minY, maxX, maxY] = boundingBox(JSON.parse(geometry));
  return [(minX + maxX) / 2, (minY + maxY) / 2];
}

function* writeStreet(key: string, { name, centres }: Street, around: Centres): Plan<void> {
  const labels = placeStreetLabels(name, centres, around);
  const [minX, minY, maxX, maxY] = boxOf(centres);
  yield {
    sql: 'INSERT INTO street_labels (street_key, name, buildings, labels, min_x, min_y, max_x, max_y) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    params: [key, name, centres.length / 2, JSON.stringify(labels), minX, minY, maxX, maxY],
  };
}

/** The box of centres (lon, lat, lon, lat…). */
function boxOf(centres: readonly number[]): Box {
  const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  eachCentre(centres, (lon, lat) => {
    [box[0], box[1], box[2], box[3]] = [Math.min(box[0], lon), Math.min(box[1], lat), Math.max(box[2], lon), Math.max(box[3], lat)];
  });
  return box;
}

/** The box around a point within which its street's labels may count buildings (street-labels.ts NEIGHBOURHOOD). */
function reach([lon, lat]: readonly [number, number]): Box {
  const across = NEIGHBOURHOOD / groundScale([lon, lat]);
  return [lon - across, lat - NEIGHBOURHOOD, lon + across, lat + NEIGHBOURHOOD];
}

const within = ([minX, minY, maxX, maxY]: Box, lon: number, lat: number) => lon >= minX && lon <= maxX && lat >= minY && lat <= maxY;

function eachCentre(centres: readonly number[], visit: (lon: number, lat: number) => void): void {
  for (let k = 0; k + 1 < centres.length; k += 2) {
    const [lon, lat] = [centres[k], centres[k + 1]];
    if (lon !== undefined && lat !== undefined) visit(lon, lat);
  }
}
