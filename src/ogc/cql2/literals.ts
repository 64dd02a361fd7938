// What the grammar's shapes cannot say about a literal, shared by the text parser and the
// JSON reader: real calendar dates and times, closed rings, positions and BBOXes in longitude
// and latitude, strings a store can hold. Each check answers with the sentence's end
// ("… is not a date") or undefined.
import { characterProblem } from '../../catalogue/strings.js';
import { isLonLat, isLonLatBox, LON_LAT_RANGES } from '../../search/lon-lat.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function dateProblem(text: string): string | undefined {
  const match = DATE.exec(text);
  if (match === null) return `${JSON.stringify(text)} is not a date written YYYY-MM-DD`;
  const [year, month, day] = match.slice(1).map(Number);
  if (year === undefined || month === undefined || day === undefined) return 'unreachable';
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return `${JSON.stringify(text)} is not a day of the calendar`;
  }
  return undefined;
}

export function timestampProblem(text: string): string | undefined {
  const match = TIMESTAMP.exec(text);
  if (match === null) return `${JSON.stringify(text)} is not a timestamp written YYYY-MM-DDThh:mm:ssZ`;
  const dateIssue = dateProblem(match[1] ?? '');
  if (dateIssue !== undefined) return dateIssue;
  const [hour, minute, second] = match.slice(2, 5).map(Number);
  // A leap second (60) is a valid RFC 3339 time.
  if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 60) {
    return `${JSON.stringify(text)} is not a time of the day`;
  }
  return undefined;
}

export function ringProblem(ring: readonly (readonly number[])[]): string | undefined {
  if (ring.length < 4) return "a polygon's ring needs at least 4 positions";
  const first = ring[0] ?? [];
  const last = ring.at(-1) ?? [];
  if (first.length !== last.length || first.some((value, i) => value !== last[i])) {
    return "a polygon's ring must end at its first position";
  }
  return undefined;
}

/** Any string: no store holds NUL or a lone surrogate, so neither can be compared (the catalogue refuses both). */
export function stringProblem(text: string): string | undefined {
  const problem = characterProblem(text);
  return problem === undefined ? undefined : `a string ${problem}`;
}

/** Longitude, latitude and an optional height, which only needs to be finite. */
export function positionProblem(position: readonly number[]): string | undefined {
  const [x = NaN, y = NaN, ...height] = position;
  if (!isLonLat(x, y)) return `the position ${numbers(position)} is not within ${LON_LAT_RANGES}`;
  if (!height.every(Number.isFinite)) return `the height of the position ${numbers(position)} is not a finite number`;
  return undefined;
}

/** A BBOX's 4 numbers, or its 6 without the heights: the lowest then the highest of its two axes. */
export function bboxCorners(values: readonly number[]): readonly (number | undefined)[] {
  return values.length === 4 ? values : [values[0], values[1], values[3], values[4]];
}

/** 4 numbers (west, south, east, north) or 6 (west, south, lowest, east, north, highest): the `bbox` parameter's rule too. */
export function bboxProblem(values: readonly number[]): string | undefined {
  if (values.length !== 4 && values.length !== 6) return `a BBOX has 4 or 6 numbers, not ${values.length}`;
  const [west = NaN, south = NaN, east = NaN, north = NaN] = bboxCorners(values);
  if (!isLonLatBox(west, south, east, north)) {
    return `a BBOX is west, south, east, north within ${LON_LAT_RANGES}, west ≤ east and south ≤ north, not ${numbers(values)}`;
  }
  const [lowest = NaN, highest = NaN] = values.length === 6 ? [values[2], values[5]] : [0, 0];
  if (!(Number.isFinite(lowest) && Number.isFinite(highest) && lowest <= highest)) {
    return `a BBOX's heights are finite numbers, the lowest first, not ${numbers(values)}`;
  }
  return undefined;
}

/**
 * The checks of a filter's positions and BBOXes: CRS84's above, or those of the filter's
 * `filter-crs` (cql2/in-crs.ts), whose literals are checked again once in CRS84.
 */
export interface SpatialChecks {
  readonly position: (position: readonly number[]) => string | undefined;
  readonly bbox: (values: readonly number[]) => string | undefined;
}

export const CRS84_CHECKS: SpatialChecks = { position: positionProblem, bbox: bboxProblem };

/** Numbers as a message quotes them (JSON would write Infinity as null). */
export function numbers(values: readonly number[]): string {
  return `[${values.map(String).join(', ')}]`;
}

/** A LIKE pattern matching `text` alone: CQL2's wildcards and escape (% _ \) escaped with \. */
export function escapeLike(text: string): string {
  return text.replace(/[%_\\]/gu, (char) => `\\${char}`);
}
