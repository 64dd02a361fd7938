// Reads back a paletted (colour type 3, 8-bit) PNG such as the demo's pictures: size,
// palette and pixels, with node's zlib and the PNG specification's row filters, so tests
// check what a browser would show without trusting the writer.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** Number of palette entries. */
  colours: number;
  /** `#rrggbb` at a pixel. */
  colourAt(x: number, y: number): string;
  /** A digest of the pixels' colours. */
  hash: string;
}

export function decodePng(bytes: Buffer): DecodedPng {
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let offset = 8;
  let header: Buffer = Buffer.alloc(0);
  let palette: Buffer = Buffer.alloc(0);
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') header = body;
    if (type === 'PLTE') palette = body;
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)];
  if (header[8] !== 8 || header[9] !== 3) throw new Error('only 8-bit paletted PNGs');
  const pixels = unfilter(zlib.inflateSync(Buffer.concat(data)), width, height);
  const colourOf = (index: number) => `#${palette.subarray(index * 3, index * 3 + 3).toString('hex')}`;
  return {
    width, height, colours: palette.length / 3,
    colourAt: (x, y) => colourOf(pixels[y * width + x]!),
    hash: createHash('sha256').update(rgb(pixels, palette)).digest('hex'),
  };
}

/** Each pixel's red, green and blue, from the palette. */
function rgb(pixels: Uint8Array, palette: Buffer): Buffer {
  const out = Buffer.alloc(pixels.length * 3);
  pixels.forEach((index, i) => palette.copy(out, i * 3, index * 3, index * 3 + 3));
  return out;
}

/** One byte a pixel: filters None, Sub, Up, Average and Paeth undone. */
function unfilter(raw: Buffer, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (width + 1)]!;
    for (let x = 0; x < width; x++) {
      const value = raw[y * (width + 1) + 1 + x]!;
      const a = x > 0 ? out[y * width + x - 1]! : 0;
      const b = y > 0 ? out[(y - 1) * width + x]! : 0;
      const c = x > 0 && y > 0 ? out[(y - 1) * width + x - 1]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      if (predictor === undefined) throw new Error(`unknown filter ${filter}`);
      out[y * width + x] = (value + predictor) & 0xff;
    }
  }
  return out;
}
