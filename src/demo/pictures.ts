// Pictures for a catalogue without real ones (the demo): a small striped PNG, one hue each,
// for every category thumbnail and image file, so that the map page and /media/ have
// something to show. Written with node's zlib: no image library needed for flat colour.
// Files keep the catalogue's names (often .jpg): browsers decode images by their bytes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Catalogue } from '../catalogue/format.js';
import type { DemoRecord } from './options.js';

/** A small PNG for every category thumbnail and image file of the catalogue, under root. */
export function writeCatalogueMedia(catalogue: Catalogue, root: string): void {
  writePictures([...catalogue.categories.map((c) => c.thumbnail), ...catalogue.images.map((i) => i.file)], root);
}

/** The records passed on as they come, the picture each names (thumbnail, image file) noted in `paths`. */
export function* notingPictures(records: Iterable<DemoRecord>, paths: string[]): Generator<DemoRecord> {
  for (const item of records) {
    const { record } = item;
    if ('thumbnail' in record) paths.push(record.thumbnail);
    else if ('file' in record) paths.push(record.file);
    yield item;
  }
}

/** A small PNG at each media path under root, one hue each in turn. */
export function writePictures(paths: readonly string[], root: string): void {
  paths.forEach((file, i) => {
    const target = path.join(root, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, png(96, 72, (i * 47) % 360));
  });
}

/** A striped picture in one hue: enough to see that it is there. */
function png(width: number, height: number, hue: number): Buffer {
  const [r, g, b] = hslToRgb(hue / 360, 0.45, 0.55);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const shade = (x + y) % 24 < 12 ? 1 : 0.8;
      rows.set([r * shade, g * shade, b * shade].map(Math.round), row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h * 12) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}
