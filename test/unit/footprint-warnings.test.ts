// Footprints GIS tools call invalid, as warnings at their paths: each case is drawn here
// with the verdict OGC Simple Features gives it (as GEOS's IsValid does), not read from the code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { footprintWarnings, orient } from '../../src/catalogue/footprint.js';
import { formatPath } from '../../src/catalogue/paths.js';
import type { FileGeometry } from '../../src/catalogue/schema.js';

type Ring = [number, number][];

const polygon = (...rings: Ring[]): FileGeometry => ({ type: 'Polygon', coordinates: rings });
const multi = (...polygons: Ring[][]): FileGeometry => ({ type: 'MultiPolygon', coordinates: polygons });

/** The warnings as `path: message`. */
function warned(geometry: FileGeometry): string[] {
  return footprintWarnings(geometry).map((w) => `${formatPath(w.segments)}: ${w.message}`);
}

const SQUARE: Ring = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]];
const HOLE: Ring = [[2, 2], [2, 4], [4, 4], [4, 2], [2, 2]];

describe('valid footprints: no warning', () => {
  const cases: [string, FileGeometry][] = [
    ['a square', polygon(SQUARE)],
    ['a square the other way round', polygon([...SQUARE].reverse())],
    ['a triangle', polygon([[0, 0], [1, 0], [0, 1], [0, 0]])],
    ['a concave L', polygon([[0, 0], [6, 0], [6, 2], [2, 2], [2, 6], [0, 6], [0, 0]])],
    ['a deeply concave comb', polygon([[0, 0], [9, 0], [9, 5], [8, 5], [8, 1], [7, 1], [7, 5], [6, 5], [6, 1], [1, 1], [1, 5], [0, 5], [0, 0]])],
    ['three corners on a straight line', polygon([[0, 0], [5, 0], [10, 0], [10, 10], [0, 10], [0, 0]])],
    ['a square with a hole', polygon(SQUARE, HOLE)],
    ['a hole touching its shell at one corner of the hole', polygon(SQUARE, [[0, 5], [3, 4], [3, 6], [0, 5]])],
    ['two holes touching at one point', polygon(SQUARE, [[2, 2], [4, 2], [4, 4], [2, 2]], [[4, 4], [6, 4], [6, 6], [4, 4]])],
    ['two polygons apart', multi([SQUARE], [[[20, 20], [30, 20], [30, 30], [20, 20]]])],
    ['coordinates at real scale', polygon([[-0.0703927, 51.5168396], [-0.0704168, 51.5168711], [-0.0703309, 51.516897], [-0.0703927, 51.5168396]])],
  ];
  for (const [name, geometry] of cases) test(name, () => assert.deepEqual(warned(geometry), []));
});

describe('invalid footprints: each warned at its path', () => {
  test('a crossing bow-tie', () => {
    assert.deepEqual(warned(polygon([[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]])), [
      'geometry.coordinates[0]: self-intersection: the ring\'s edge from position 0 to 1 crosses its edge from position 2 to 3',
    ]);
  });

  test('a ring touching itself at a corner (a figure of eight through one vertex)', () => {
    const [warning, ...rest] = warned(polygon([[0, 0], [4, 0], [2, 2], [4, 4], [0, 4], [2, 2], [0, 0]]));
    assert.equal(rest.length, 0);
    assert.match(warning!, /^geometry\.coordinates\[0\]: self-intersection: the ring's edge from position \d to \d touches its edge/);
  });

  test('a corner of the ring on another of its edges', () => {
    assert.match(warned(polygon([[0, 0], [10, 0], [10, 10], [5, 0], [0, 10], [0, 0]]))[0]!, /^geometry\.coordinates\[0\]: self-intersection: .* touches /);
  });

  test('collinear overlap: a spike going back along its own edge', () => {
    const warnings = warned(polygon([[0, 0], [10, 0], [10, 10], [10, 15], [10, 5], [0, 10], [0, 0]]));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /^geometry\.coordinates\[0\]: self-intersection: the ring's edge/);
  });

  test('collinear overlap of neighbouring edges: a flat ring out and back along one line', () => {
    assert.deepEqual(warned(polygon([[0, 0], [10, 0], [5, 0], [0, 0]])), [
      'geometry.coordinates[0]: self-intersection: the ring\'s edge from position 0 to 1 overlaps its edge from position 1 to 2',
    ]);
  });

  test('collinear overlap of two rings along an edge', () => {
    assert.deepEqual(warned(polygon(SQUARE, [[0, 2], [0, 4], [3, 4], [3, 2], [0, 2]])), [
      'geometry.coordinates[0]: self-intersection: the ring overlaps ring 1 (its edge from position 3 to 4 and that ring\'s edge from position 0 to 1)',
    ]);
  });

  test('a hole crossing its shell', () => {
    assert.deepEqual(warned(polygon(SQUARE, [[8, 2], [12, 2], [12, 4], [8, 4], [8, 2]])), [
      'geometry.coordinates[0]: self-intersection: the ring crosses ring 1 (its edge from position 1 to 2 and that ring\'s edge from position 0 to 1)',
    ]);
  });

  test('a hole passing through two corners of its shell (no crossing inside an edge)', () => {
    assert.deepEqual(warned(polygon(SQUARE, [[-1, -1], [11, 11], [12, -5], [-1, -1]])).map((w) => w.replace(/ \(.*/, '')), [
      'geometry.coordinates[0]: self-intersection: the ring touches ring 1 at more than one point',
    ]);
  });

  test('a hole touching its shell at two points', () => {
    assert.match(warned(polygon(SQUARE, [[0, 5], [5, 2], [10, 5], [5, 8], [0, 5]]))[0] ?? '', /^geometry\.coordinates\[0\]: self-intersection: the ring touches ring 1 at more than one point/);
  });

  test('duplicate consecutive positions, each at its own path; the closing position is not one', () => {
    assert.deepEqual(warned(polygon([[0, 0], [10, 0], [10, 0], [10, 10], [0, 10], [0, 10], [0, 10], [0, 0]])), [
      'geometry.coordinates[0][2]: repeats the position before it ([10,0]); GIS tools drop it or call the footprint invalid',
      'geometry.coordinates[0][5]: repeats the position before it ([0,10]); GIS tools drop it or call the footprint invalid',
      'geometry.coordinates[0][6]: repeats the position before it ([0,10]); GIS tools drop it or call the footprint invalid',
    ]);
  });

  test('a ring too short once its repeated positions are dropped', () => {
    assert.deepEqual(warned(multi([SQUARE], [[[1, 1], [2, 2], [2, 2], [1, 1]]])), [
      'geometry.coordinates[1][0][2]: repeats the position before it ([2,2]); GIS tools drop it or call the footprint invalid',
      'geometry.coordinates[1][0]: ring has 3 positions once repeated ones are dropped; a ring needs at least 4 (3 corners and the first again)',
    ]);
  });

  test('a MultiPolygon names the polygon and ring', () => {
    assert.match(warned(multi([SQUARE], [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]]))[0] ?? '', /^geometry\.coordinates\[1\]\[0\]: self-intersection/);
  });
});

/** A closed ring of `n` corners round (cx, cy), radius r, its radius waving by `wave` over `waves` waves. */
function round(n: number, [cx, cy]: [number, number], r: number, wave = 0, waves = 7): Ring {
  const ring = Array.from({ length: n }, (_, k): [number, number] => {
    const a = (2 * Math.PI * k) / n;
    const radius = r * (1 + wave * Math.sin(waves * a));
    return [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
  });
  return [...ring, ring[0]!];
}

describe('long rings (their edges found by the grid)', () => {
  const LONG = 1999;

  test('a wavy ring of 1,999 corners with a wavy hole: valid', () => {
    assert.deepEqual(warned(polygon(round(LONG, [0, 0], 10, 0.2, 40), round(500, [0, 0], 4, 0.2, 9))), []);
  });

  test('one corner of a long ring pulled across the ring', () => {
    const ring = round(LONG, [0, 0], 10, 0.2, 40);
    ring[700] = [ring[1700]![0] * 1.5, ring[1700]![1] * 1.5];
    const warnings = warned(polygon(ring));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /^geometry\.coordinates\[0\]: self-intersection: the ring's edge from position (699 to 700|700 to 701) crosses/);
  });

  test('a long hole crossing its long shell', () => {
    assert.deepEqual(warned(polygon(round(LONG, [0, 0], 10), round(800, [9, 0], 2))).map((w) => w.replace(/ \(.*/, '')), [
      'geometry.coordinates[0]: self-intersection: the ring crosses ring 1',
    ]);
  });

  test('a long hole touching its long shell at one shared corner: valid; at two: warned', () => {
    const shell = round(LONG - 1, [0, 0], 10);
    const hole = round(400, [8, 0], 2);
    // The hole's corner 0 is (10, 0), the shell's corner 0 too.
    assert.deepEqual(warned(polygon(shell, hole)), []);
    // A flat ellipse inside, its ends on the shell's corners 0 and 999: exactly (10, 0) and (-10, 0).
    shell[999] = [-10, 0];
    const twice = round(400, [0, 0], 10).map(([x, y]): [number, number] => [x, y * 0.3]);
    twice[200] = [-10, 0];
    assert.deepEqual(warned(polygon(shell, twice)).map((w) => w.replace(/ \(.*/, '')), ['geometry.coordinates[0]: self-intersection: the ring touches ring 1 at more than one point']);
  });
});

describe('orientation is exact', () => {
  test('points nearly on a line are judged by their exact values', () => {
    // c = a + t(b - a) rounded: floating-point evaluation of the determinant gets these wrong.
    const [ax, ay, bx, by] = [0.5, 0.5, 12, 12];
    assert.equal(orient(ax, ay, bx, by, 24, 24), 0);
    assert.equal(orient(ax, ay, bx, by, 0.5 + 2 ** -52, 0.5), -1);
    assert.equal(orient(ax, ay, bx, by, 0.5, 0.5 + 2 ** -52), 1);
    assert.equal(orient(-0.0703927, 51.5168396, -0.0703927, 51.5168396 + 1e-7, -0.0703927, 51.5168397), 0);
  });

  test('agrees with exact rational arithmetic on many near-degenerate triples', () => {
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 2000; i++) {
      const [ax, ay] = [next(), next()];
      const [bx, by] = [ax + next(), ay + next()];
      const t = next();
      const [cx, cy] = [ax + t * (bx - ax) + (next() - 0.5) * 2 ** -50, ay + t * (by - ay)];
      assert.equal(orient(ax, ay, bx, by, cx, cy), exactSign(ax, ay, bx, by, cx, cy));
    }
  });
});

/**
 * The determinant's sign in integers, computed apart from the code: these doubles' lowest bits
 * are above 2^-200, so each times 2^200 is an integer double, which BigInt takes exactly.
 */
function exactSign(...values: number[]): number {
  const [ax, ay, bx, by, cx, cy] = values.map((v) => BigInt(v * 2 ** 200)) as [bigint, bigint, bigint, bigint, bigint, bigint];
  const det = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}
