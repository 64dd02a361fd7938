// A footprint as ISO WKB, little-endian: a MultiPolygon (type 6) of Polygons (3), 2D.
// Written for GeoPackage downloads; read back from PostGIS (ST_AsBinary of the footprint
// kept as geometry), whose tiles then parse no JSON (store/tiles/tile-plans.ts).
import type { MultiPolygon } from './format.js';

const MULTI_POLYGON = 6;
const POLYGON = 3;

/** The footprint as WKB. */
export function multiPolygonWkb(geometry: MultiPolygon): Buffer {
  let size = 9;
  for (const polygon of geometry.coordinates) {
    size += 9;
    for (const r of polygon) size += 4 + 16 * r.length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  const header = (type: number, count: number) => {
    out.writeUInt8(1, at);
    out.writeUInt32LE(type, at + 1);
    out.writeUInt32LE(count, at + 5);
    at += 9;
  };
  header(MULTI_POLYGON, geometry.coordinates.length);
  for (const polygon of geometry.coordinates) {
    header(POLYGON, polygon.length);
    for (const r of polygon) {
      out.writeUInt32LE(r.length, at);
      at += 4;
      for (const [x, y] of r) {
        out.writeDoubleLE(x, at);
        out.writeDoubleLE(y, at + 8);
        at += 16;
      }
    }
  }
  return out;
}

/** WKB of a 2D MultiPolygon (either byte order) → the footprint; anything else is refused. */
export function multiPolygonFromWkb(bytes: Uint8Array): MultiPolygon {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  let little = true;
  const header = (type: number) => {
    little = view.getUint8(at) === 1;
    const found = view.getUint32(at + 1, little);
    if (found !== type) throw new Error(`WKB: expected geometry type ${type}, found ${found}`);
    at += 5;
    return count();
  };
  const count = () => {
    const n = view.getUint32(at, little);
    at += 4;
    return n;
  };
  const coordinates: [number, number][][][] = [];
  for (let p = header(MULTI_POLYGON); p > 0; p--) {
    const rings: [number, number][][] = [];
    for (let r = header(POLYGON); r > 0; r--) {
      const ring: [number, number][] = new Array(count());
      for (let i = 0; i < ring.length; i++, at += 16) ring[i] = [view.getFloat64(at, little), view.getFloat64(at + 8, little)];
      rings.push(ring);
    }
    coordinates.push(rings);
  }
  if (at !== bytes.byteLength) throw new Error(`WKB: ${bytes.byteLength - at} bytes after the geometry`);
  return { type: 'MultiPolygon', coordinates };
}
