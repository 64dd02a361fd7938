// A contributed picture, from its bytes to the files a record shows (issue 37). Judged by its
// bytes alone (never its name nor its declared type): JPEG, PNG or WebP; at most 20 MB and 50
// megapixels, the pixels read from its header before anything is decoded (a small file can
// claim a huge image). Re-encoded by libvips (sharp): every metadata block dropped (EXIF GPS
// would put a contributor's home on the map), the orientation applied to the pixels, a
// display size and a thumbnail made. The original itself is never kept: the three re-encodings
// go into the store with the contribution (store/contributions/picture-plans.ts).
import sharp from 'sharp';

export const PICTURE_MAX_BYTES = 20 * 1024 * 1024;
export const PICTURE_MAX_PIXELS = 50_000_000;
const DISPLAY_SIDE = 1600;
const THUMBNAIL_SIDE = 400;

// One libvips thread per picture, no cache between them: uploads are few, and other requests need the cores.
sharp.concurrency(1);
sharp.cache(false);

export type PictureType = 'jpeg' | 'png' | 'webp';

/** The type the bytes begin as, or null: magic numbers of the three formats (JPEG's SOI, PNG's signature, RIFF…WEBP). */
export function pictureTypeOf(bytes: Uint8Array): PictureType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

/** The re-encodings kept of a picture: JPEG without metadata, upright; its original is not among them. */
export interface PreparedPicture {
  type: PictureType;
  /** Every pixel of the original: the archive's copy. */
  full: Buffer;
  /** At most DISPLAY_SIDE on its longer side. */
  display: Buffer;
  thumbnail: Buffer;
}

export type PictureOutcome = { ok: true; picture: PreparedPicture } | { ok: false; status: 413 | 415 | 400; problem: string };

const DAMAGED = { ok: false, status: 400, problem: 'That picture cannot be read: it may be damaged.' } as const;

export async function preparePicture(bytes: Buffer): Promise<PictureOutcome> {
  if (bytes.length > PICTURE_MAX_BYTES) return { ok: false, status: 413, problem: 'A picture is at most 20 MB.' };
  const type = pictureTypeOf(bytes);
  if (type === null) return { ok: false, status: 415, problem: 'That file is not a JPEG, PNG or WebP picture.' };
  let header: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    // The header only: no pixel is decoded here.
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return DAMAGED;
  }
  if (header.format !== type || !header.width || !header.height) return DAMAGED;
  if (header.width * header.height > PICTURE_MAX_PIXELS) {
    return { ok: false, status: 413, problem: `A picture is at most 50 megapixels; this one is ${header.width} × ${header.height}.` };
  }
  try {
    // The original decoded once, into the archive's copy (mozjpeg's trellis is too slow at 50 megapixels);
    // the smaller sizes from that JPEG, which libjpeg shrinks while decoding: cheap.
    // Streamed through libvips a strip at a time: turned only when the header says so (turning
    // holds the whole image, 147 MB at 49 megapixels), and without optimised Huffman tables
    // (their two passes hold every coefficient: +190 MB measured at 49 megapixels; the file is
    // about twice as large, once, for the archive).
    const decoded = sharp(bytes, { limitInputPixels: PICTURE_MAX_PIXELS, failOn: 'error' });
    const upright = header.orientation !== undefined && header.orientation > 1 ? decoded.rotate() : decoded;
    const full = await upright.jpeg({ quality: 90, optimiseCoding: false }).toBuffer();
    const display = await sharp(full, { limitInputPixels: PICTURE_MAX_PIXELS }).resize(DISPLAY_SIDE, DISPLAY_SIDE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    const thumbnail = await sharp(display).resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
    return { ok: true, picture: { type, full, display, thumbnail } };
  } catch {
    return DAMAGED;
  }
}
