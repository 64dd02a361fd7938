// Footprints that GIS tools call invalid, found as warnings (the file is still accepted):
// a position repeating the one before it, a ring left with fewer than 4 positions once those
// are dropped, and a polygon whose rings cross, overlap or touch themselves, or cross or
// overlap one another, or meet another ring at more than one point (a hole may touch its
// shell at one point, as OGC Simple Features allows). Edges are compared only when their
// boxes share a cell of a grid; each test is exact (robust orientation), so a footprint's
// verdict never depends on rounding.
import { FOOTPRINT_WARNINGS } from './messages.js';
import type { LocatedProblem, PathSegment } from './paths.js';
import type { FileGeometry } from './schema.js';
import { at as itemAt, outOfBounds } from '../invariant.js';

type Ring = readonly (readonly [number, number])[];

/** The warnings of a footprint whose shape the schema accepted (a Polygon or MultiPolygon), at paths below the record. */
export function footprintWarnings(geometry: FileGeometry): LocatedProblem[] {
  const warnings: LocatedProblem[] = [];
  const at = ['geometry', 'coordinates'];
  if (geometry.type === 'Polygon') polygonWarnings(geometry.coordinates, at, warnings);
  else geometry.coordinates.forEach((polygon, p) => polygonWarnings(polygon, [...at, p], warnings));
  return warnings;
}

function polygonWarnings(rings: readonly Ring[], at: readonly PathSegment[], warnings: LocatedProblem[]): void {
  const corners = new Corners();
  rings.forEach((ring, r) => {
    const repeats = corners.addRing(ring, r);
    for (const i of repeats) warnings.push({ segments: [...at, r, i], message: FOOTPRINT_WARNINGS.repeated(itemAt(ring, i - 1)) });
    const kept = ring.length - repeats.length;
    if (kept < 4) {
      corners.dropLastRing();
      warnings.push({ segments: [...at, r], message: FOOTPRINT_WARNINGS.tooShort(kept) });
    }
  });
  for (const meeting of meetings(corners)) {
    const [a, b] = meeting.rings;
    const message = a === b ? FOOTPRINT_WARNINGS.selfIntersection(meeting.edges, meeting.kind) : FOOTPRINT_WARNINGS.ringsMeet(b, meeting.edges, meeting.kind);
    warnings.push({ segments: [...at, a], message });
  }
}

/**
 * A polygon's rings as flat lists of corners (positions without those repeating the one
 * before), ring after ring: edge `e` runs from corner e to e + 1 when e is not its ring's
 * last corner. Flat numbers, not an object per edge: this runs for every position of the file.
 */
class Corners {
  readonly x: number[] = [];
  readonly y: number[] = [];
  /** Each corner's place in its ring in the file, its ring's place, its ring's first and last corners. */
  readonly place: number[] = [];
  readonly ring: number[] = [];
  readonly first: number[] = [];
  readonly last: number[] = [];

  /** Adds a ring's corners; returns the places of positions equal to the one before them. */
  addRing(positions: Ring, r: number): number[] {
    const repeats: number[] = [];
    const first = this.x.length;
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i];
      if (position === undefined) outOfBounds();
      const x = position[0];
      const y = position[1];
      const n = this.x.length;
      if (n > first && this.x[n - 1] === x && this.y[n - 1] === y) {
        repeats.push(i);
        continue;
      }
      this.x.push(x);
      this.y.push(y);
      this.place.push(i);
      this.ring.push(r);
      this.first.push(first);
    }
    for (let c = first; c < this.x.length; c++) this.last.push(this.x.length - 1);
    return repeats;
  }

  dropLastRing(): void {
    const keep = this.first[this.first.length - 1] ?? 0;
    for (const list of [this.x, this.y, this.place, this.ring, this.first, this.last]) list.length = keep;
  }

  /** Every edge: each corner but its ring's last. */
  edges(): number[] {
    const edges: number[] = [];
    for (let c = 0; c < this.x.length; c++) {
      const last = this.last[c];
      if (last === undefined) outOfBounds();
      if (c < last) edges.push(c);
    }
    return edges;
  }
}

/** A number of the corner lists at an index they hold (a corner, an edge's end, an edge of the list). */
function value(list: readonly number[], i: number): number {
  const v = list[i];
  return v === undefined ? outOfBounds() : v;
}

/** The same for the grid's counts and spans. */
function int(list: Int32Array, i: number): number {
  const v = list[i];
  return v === undefined ? outOfBounds() : v;
}


export type Contact = 'cross' | 'touch' | 'overlap';

/** Two rings (the same one twice: a ring meeting itself) meeting, and a pair of edges where, by the file's positions. */
interface Meeting {
  rings: [number, number];
  kind: Contact;
  /** [from, to] positions of each edge. */
  edges: [[number, number], [number, number]];
}

/** Up to this many edges every pair is tried; beyond, only pairs that share a cell of a grid. */
const FEW_EDGES = 16;

/**
 * Every pair of rings that meet where they must not, with the first pair of edges found
 * (one meeting per pair of rings: a ring crossing itself a hundred times is one warning).
 * Only edges whose boxes meet are compared: each edge goes into the cells of a grid (about
 * one edge a cell) its box spans, and a pair is compared once, in the first cell holding
 * both. Time is about linear in the edges for real footprints, not quadratic.
 */
function meetings(c: Corners): Meeting[] {
  const edges = c.edges();
  const found = new Map<number, Meeting>();
  const pairs = new PairTest(c, found);
  if (edges.length <= FEW_EDGES) {
    for (let i = 0; i < edges.length; i++) {
      const e = edges[i];
      if (e === undefined) outOfBounds();
      for (let j = i + 1; j < edges.length; j++) {
        const f = edges[j];
        if (f === undefined) outOfBounds();
        pairs.test(e, f);
      }
    }
  } else {
    gridPairs(c, edges, pairs);
  }
  return found.size === 0 ? [] : [...found.values()].sort((a, b) => a.rings[0] - b.rings[0] || a.rings[1] - b.rings[1]);
}

/** One axis of the grid: `size` slots over the corners' extent. */
function slots(values: readonly number[], size: number): (v: number) => number {
  let [min, max] = [Infinity, -Infinity];
  for (const v of values) [min, max] = [Math.min(min, v), Math.max(max, v)];
  const width = (max - min) / size || 1;
  return (v) => Math.min(size - 1, Math.floor((v - min) / width));
}

/** Every cell each edge's box spans. */
function forEachCell(span: Int32Array, n: number, side: number, visit: (cell: number, k: number) => void): void {
  for (let k = 0; k < n; k++) {
    const firstColumn = span[4 * k], lastColumn = span[4 * k + 1], firstRow = span[4 * k + 2], lastRow = span[4 * k + 3];
    if (firstColumn === undefined || lastColumn === undefined || firstRow === undefined || lastRow === undefined) outOfBounds();
    for (let col = firstColumn; col <= lastColumn; col++) for (let r = firstRow; r <= lastRow; r++) visit(col * side + r, k);
  }
}

function gridPairs(c: Corners, edges: readonly number[], pairs: PairTest): void {
  const n = edges.length;
  const side = Math.ceil(Math.sqrt(n));
  const [column, row] = [slots(c.x, side), slots(c.y, side)];
  // Per edge: its first and last column and row.
  const span = new Int32Array(4 * n);
  for (let k = 0; k < n; k++) {
    const e = value(edges, k);
    const x0 = value(c.x, e);
    const x1 = value(c.x, e + 1);
    const y0 = value(c.y, e);
    const y1 = value(c.y, e + 1);
    span[4 * k] = column(Math.min(x0, x1));
    span[4 * k + 1] = column(Math.max(x0, x1));
    span[4 * k + 2] = row(Math.min(y0, y1));
    span[4 * k + 3] = row(Math.max(y0, y1));
  }
  // The edges of each cell, cell after cell: counted, then placed.
  const start = new Int32Array(side * side + 1);
  forEachCell(span, n, side, (cell) => {
    const count = start[cell + 1];
    if (count === undefined) outOfBounds();
    start[cell + 1] = count + 1;
  });
  for (let cell = 0; cell < side * side; cell++) start[cell + 1] = int(start, cell + 1) + int(start, cell);
  const held = new Int32Array(int(start, side * side));
  const filled = start.slice(0, side * side);
  forEachCell(span, n, side, (cell, k) => {
    const place = filled[cell];
    if (place === undefined) outOfBounds();
    held[place] = k;
    filled[cell] = place + 1;
  });
  for (let cell = 0; cell < side * side; cell++) {
    const [col, r] = [Math.floor(cell / side), cell % side];
    const end = int(start, cell + 1);
    for (let i = int(start, cell); i < end; i++) {
      const a = int(held, i);
      const aColumn = span[4 * a], aRow = span[4 * a + 2];
      if (aColumn === undefined || aRow === undefined) outOfBounds();
      for (let j = i + 1; j < end; j++) {
        const b = held[j];
        if (b === undefined) outOfBounds();
        const bColumn = span[4 * b], bRow = span[4 * b + 2];
        if (bColumn === undefined || bRow === undefined) outOfBounds();
        // Compared in the first cell holding both: where the later of their first columns meets the later of their first rows.
        if (Math.max(aColumn, bColumn) === col && Math.max(aRow, bRow) === r) pairs.test(value(edges, a), value(edges, b));
      }
    }
  }
}

/** One pair of edges judged, what is found kept per pair of rings. */
class PairTest {
  /** Per pair of different rings: the first point they touch at, as `x y`. */
  private readonly touches = new Map<number, string>();

  constructor(private readonly c: Corners, private readonly found: Map<number, Meeting>) {}

  test(e: number, f: number): void {
    const c = this.c;
    if (!boxesMeet(c, e, f)) return;
    const ringE = c.ring[e], ringF = c.ring[f];
    if (ringE === undefined || ringF === undefined) outOfBounds();
    const swap = ringE > ringF;
    const g = swap ? f : e;
    const h = swap ? e : f;
    const ringG = swap ? ringF : ringE;
    const ringH = swap ? ringE : ringF;
    // Exact while a polygon has under 2^26 rings (the record limits allow far fewer).
    const key = ringG * 2 ** 26 + ringH;
    if (this.found.size > 0 && this.found.has(key)) return;
    const kind = contact(c, g, h);
    if (kind === null) return;
    if (ringG === ringH ? !forbiddenInRing(c, g, h, kind) : !forbiddenBetweenRings(c, g, h, kind, key, this.touches)) return;
    const place = c.place;
    this.found.set(key, { rings: [ringG, ringH], kind, edges: [[value(place, g), value(place, g + 1)], [value(place, h), value(place, h + 1)]] });
  }
}

function boxesMeet(c: Corners, e: number, f: number): boolean {
  return spansMeet(c.x, e, f) && spansMeet(c.y, e, f);
}

/** The two edges' extents along one axis overlap. */
function spansMeet(v: readonly number[], e: number, f: number): boolean {
  const e0 = v[e], e1 = v[e + 1], f0 = v[f], f1 = v[f + 1];
  if (e0 === undefined || e1 === undefined || f0 === undefined || f1 === undefined) outOfBounds();
  return Math.min(f0, f1) <= Math.max(e0, e1) && Math.max(f0, f1) >= Math.min(e0, e1);
}

/**
 * Whether a contact makes the polygon invalid: within a ring, neighbouring edges may share
 * their corner (not overlap), others may not meet at all; different rings may touch at one
 * point only (two points cut the polygon's inside in two, and a ring passing through
 * another's corner meets it twice).
 */
function forbiddenInRing(c: Corners, e: number, f: number, kind: Contact): boolean {
  return kind === 'overlap' || !neighbours(c, e, f);
}

function forbiddenBetweenRings(c: Corners, e: number, f: number, kind: Contact, key: number, touches: Map<number, string>): boolean {
  if (kind !== 'touch') return true;
  const point = touchPoint(c, e, f);
  const earlier = touches.get(key);
  if (earlier === undefined) touches.set(key, point);
  return earlier !== undefined && earlier !== point;
}

/** Edges of one ring next to each other, the last and the first too. */
function neighbours(c: Corners, e: number, f: number): boolean {
  const lo = Math.min(e, f);
  const hi = Math.max(e, f);
  return hi - lo === 1 || (lo === c.first[lo] && hi === value(c.last, hi) - 1);
}

/** The point two edges touch at (an end of one on the other), as exact text. */
function touchPoint(c: Corners, e: number, f: number): string {
  for (const [edge, other] of [[e, f], [f, e]] as const) {
    for (const end of [edge, edge + 1]) {
      const [x, y] = [value(c.x, end), value(c.y, end)];
      if (onEdge(c, other, x, y)) return `${x} ${y}`;
    }
  }
  return '';
}

function onEdge(c: Corners, e: number, px: number, py: number): boolean {
  const [ax, ay, bx, by] = [value(c.x, e), value(c.y, e), value(c.x, e + 1), value(c.y, e + 1)];
  const within = px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
  return within && orient(ax, ay, bx, by, px, py) === 0;
}

/** How two edges meet: crossing inside both, touching at one point, overlapping along a stretch; null: apart. */
function contact(c: Corners, e: number, f: number): Contact | null {
  const { x, y } = c;
  const ax = x[e], ay = y[e], bx = x[e + 1], by = y[e + 1];
  const cx = x[f], cy = y[f], dx = x[f + 1], dy = y[f + 1];
  if (ax === undefined || ay === undefined || bx === undefined || by === undefined || cx === undefined || cy === undefined || dx === undefined || dy === undefined) outOfBounds();
  const oc = orient(ax, ay, bx, by, cx, cy);
  const od = orient(ax, ay, bx, by, dx, dy);
  if (oc !== 0 && oc === od) return null;
  const oa = orient(cx, cy, dx, dy, ax, ay);
  const ob = orient(cx, cy, dx, dy, bx, by);
  if (oa !== 0 && oa === ob) return null;
  if (oa === 0 && ob === 0 && oc === 0 && od === 0) return collinearContact([ax, ay, bx, by], [cx, cy, dx, dy]);
  // Here each edge's ends are not strictly on one side of the other's line.
  return oa !== 0 && ob !== 0 && oc !== 0 && od !== 0 ? 'cross' : 'touch';
}

/** Two edges on one line: their common stretch along it, along x unless the line is vertical (exact comparisons). */
type Edge = readonly [ax: number, ay: number, bx: number, by: number];

function collinearContact([ax, ay, bx, by]: Edge, [cx, cy, dx, dy]: Edge): Contact | null {
  const vertical = ax === bx && cx === dx;
  const [e0, e1, f0, f1] = vertical ? [ay, by, cy, dy] : [ax, bx, cx, dx];
  const lo = Math.max(Math.min(e0, e1), Math.min(f0, f1));
  const hi = Math.min(Math.max(e0, e1), Math.max(f0, f1));
  if (lo > hi) return null;
  return lo === hi ? 'touch' : 'overlap';
}

// Robust orientation: Shewchuk's first error bound on the floating-point determinant, and
// the exact determinant in integers when the result is within it (rare: nearly collinear).
const EPSILON = 2 ** -53;
const ERROR_BOUND = (3 + 16 * EPSILON) * EPSILON;

/** The side of line a→b that c is on: 1 left, -1 right, 0 on it; exact. */
export function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): -1 | 0 | 1 {
  const acx = ax - cx, bcy = by - cy, acy = ay - cy, bcx = bx - cx;
  const left = acx * bcy;
  const right = acy * bcx;
  const det = left - right;
  const bound = ERROR_BOUND * (Math.abs(left) + Math.abs(right));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  // A difference of two doubles is 0 only when they are equal: both products are exactly 0
  // (c is a or b, or on an axis-parallel line through them: every shared corner).
  if ((acx === 0 || bcy === 0) && (acy === 0 || bcx === 0)) return 0;
  return exactOrient(ax, ay, bx, by, cx, cy);
}

function exactOrient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): -1 | 0 | 1 {
  const lowest = Math.min(...[ax, ay, bx, by, cx, cy].map((v) => binaryParts(v)[1]));
  const exact = (v: number) => {
    const [mantissa, exponent] = binaryParts(v);
    return mantissa << BigInt(exponent - lowest);
  };
  const [x, y] = [exact(cx), exact(cy)];
  const det = (exact(ax) - x) * (exact(by) - y) - (exact(ay) - y) * (exact(bx) - x);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

const bits = new DataView(new ArrayBuffer(8));

/** A finite double as mantissa × 2^exponent, both integers: exactly its value. */
function binaryParts(value: number): [bigint, number] {
  bits.setFloat64(0, value);
  const word = bits.getBigUint64(0);
  const biased = Number((word >> 52n) & 0x7ffn);
  const fraction = word & 0xfffffffffffffn;
  const mantissa = biased === 0 ? fraction : fraction | 0x10000000000000n;
  return [word >> 63n === 1n ? -mantissa : mantissa, (biased === 0 ? 1 : biased) - 1075];
}
