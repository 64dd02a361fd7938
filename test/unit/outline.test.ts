// A footprint's outline (search/box.ts encodeOutline), SQLite's form of it for the exact box
// test: read back, it is the footprint, number for number (holes, several parts, the extreme
// doubles), so the test it feeds answers as the parsed GeoJSON would; and the WKB PostgreSQL's tiles read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MultiPolygon } from '../../src/catalogue/format.js';
import { decodeOutline, encodeOutline } from '../../src/search/box.js';
import { multiPolygonFromWkb, multiPolygonWkb } from '../../src/catalogue/wkb.js';
import { generateDemoCatalogue } from '../../src/demo/demo.js';

const square = (x: number, y: number, size: number): [number, number][] => [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]];

const FOOTPRINTS: [string, MultiPolygon][] = [
  ['one ring', { type: 'MultiPolygon', coordinates: [[square(-0.07, 51.52, 0.001)]] }],
  ['a courtyard and a second part', { type: 'MultiPolygon', coordinates: [[square(0, 0, 1), square(0.25, 0.25, 0.5)], [square(2, 2, 1)]] }],
  ['extreme doubles', { type: 'MultiPolygon', coordinates: [[[[-180, -90], [180, 90], [5e-324, -0], [0.1 + 0.2, 1.7976931348623157e308], [-180, -90]]]] }],
];

for (const [name, footprint] of FOOTPRINTS) {
  test(`read back as written: ${name}`, () => {
    const bytes = encodeOutline(footprint);
    assert.deepEqual(decodeOutline(bytes), footprint);
    // Unaligned, as a blob may arrive: read the same.
    const shifted = Buffer.alloc(bytes.length + 3);
    bytes.copy(shifted, 3);
    assert.deepEqual(decodeOutline(shifted.subarray(3)), footprint);
  });
}

test('every footprint of a generated catalogue reads back as its GeoJSON parsed', () => {
  for (const feature of generateDemoCatalogue({ scale: 0.2, seed: 12 }).features) {
    assert.deepEqual(decodeOutline(encodeOutline(feature.geometry)), JSON.parse(JSON.stringify(feature.geometry)), `feature ${feature.id}`);
  }
});

// The WKB PostgreSQL's tiles read (catalogue/wkb.ts): written as GeoPackage does, read back the same; PostGIS's own bytes read as written.
for (const [name, footprint] of FOOTPRINTS) {
  test(`WKB read back as written: ${name}`, () => {
    const bytes = multiPolygonWkb(footprint);
    assert.deepEqual(multiPolygonFromWkb(bytes), footprint);
    const shifted = Buffer.alloc(bytes.length + 3);
    bytes.copy(shifted, 3);
    assert.deepEqual(multiPolygonFromWkb(shifted.subarray(3)), footprint);
  });
}

test('WKB: big-endian bytes (as another server may send) read as the same footprint; a polygon or trailing bytes refused', () => {
  // MULTIPOLYGON(((0 0,1 0,1 1,0 0))) in XDR, written out by hand.
  const xdr = Buffer.from([
    '00', '00000006', '00000001', '00', '00000003', '00000001', '00000004',
    '0000000000000000', '0000000000000000', '3ff0000000000000', '0000000000000000',
    '3ff0000000000000', '3ff0000000000000', '0000000000000000', '0000000000000000',
  ].join(''), 'hex');
  assert.deepEqual(multiPolygonFromWkb(xdr), { type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]]] });
  assert.throws(() => multiPolygonFromWkb(xdr.subarray(9)), /expected geometry type 6, found 3/);
  assert.throws(() => multiPolygonFromWkb(Buffer.concat([xdr, Buffer.alloc(1)])), /1 bytes after the geometry/);
});
