// A paletted picture (one byte a pixel, an index into its colours) and its PNG: enough for
// the demo's flat-colour drawings, written with node's zlib, no image library.
import zlib from 'node:zlib';
import { GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS } from './glyphs.js';
import { at } from '../invariant.js';

export class Picture {
  readonly pixels: Uint8Array;
  private readonly colours: number[][] = [];

  constructor(readonly width: number, readonly height: number, background: string) {
    this.pixels = new Uint8Array(width * height);
    this.colour(background);
  }

  /** The index of a `#rrggbb` colour, added when new. */
  colour(hex: string): number {
    const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const found = this.colours.findIndex((c) => c.every((v, i) => v === rgb[i]));
    return found >= 0 ? found : this.colours.push(rgb) - 1;
  }

  rect(x: number, y: number, w: number, h: number, hex: string): void {
    const index = this.colour(hex);
    const [x0, x1] = [Math.max(0, Math.round(x)), Math.min(this.width, Math.round(x + w))];
    for (let row = Math.max(0, Math.round(y)); row < Math.min(this.height, Math.round(y + h)); row++) {
      this.pixels.fill(index, row * this.width + x0, row * this.width + x1);
    }
  }

  /** A triangle with a horizontal base from (x0, base) to (x1, base) and its apex at (apexX, apexY). */
  gable(x0: number, x1: number, base: number, apexX: number, apexY: number, hex: string): void {
    for (let y = Math.round(apexY); y < base; y++) {
      const t = (y - apexY) / (base - apexY);
      this.rect(apexX + (x0 - apexX) * t, y, (x1 - x0) * t, 1, hex);
    }
  }

  /** Text in the bitmap font, each font pixel drawn `scale` pixels square; non-ASCII as '?'. */
  text(x: number, y: number, text: string, scale: number, hex: string): void {
    const index = this.colour(hex);
    [...text].forEach((char, n) => {
      const code = char.charCodeAt(0);
      const glyph = at(GLYPHS, code >= 32 && code < 127 ? code - 32 : 31);
      for (let row = 0; row < GLYPH_HEIGHT; row++) {
        const bits = parseInt(glyph.slice(row * 3, row * 3 + 3), 16);
        for (let col = 0; col < GLYPH_WIDTH; col++) {
          if (bits & (1 << (GLYPH_WIDTH - 1 - col))) this.block(x + (n * GLYPH_WIDTH + col) * scale, y + row * scale, scale, index);
        }
      }
    });
  }

  private block(x: number, y: number, size: number, index: number): void {
    for (let row = y; row < y + size; row++) {
      if (row < 0 || row >= this.height) continue;
      this.pixels.fill(index, row * this.width + Math.max(0, x), row * this.width + Math.min(this.width, x + size));
    }
  }

  /** PNG, 8-bit paletted; a row the same as the one above is filtered "Up" (all zeros: it costs nothing);
   * zlib's run-length strategy: these are runs of one colour, and it is some five times faster than the default here. */
  png(): Buffer {
    const { width, height, pixels } = this;
    const rows = Buffer.alloc((width + 1) * height);
    for (let y = 0; y < height; y++) {
      const line = pixels.subarray(y * width, (y + 1) * width);
      if (y > 0 && Buffer.compare(line, pixels.subarray((y - 1) * width, y * width)) === 0) rows[y * (width + 1)] = 2;
      else rows.set(line, y * (width + 1) + 1);
    }
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header.set([8, 3, 0, 0, 0], 8);
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('PLTE', Buffer.from(this.colours.flat())),
      chunk('IDAT', zlib.deflateSync(rows, { strategy: zlib.constants.Z_RLE })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}
