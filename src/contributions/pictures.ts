// A contributed picture, from its bytes to the files a record shows (issue 37). Judged by its
// bytes alone (never its name nor its declared type): JPEG, PNG or WebP; at most 20 MB and 50
// megapixels, the pixels read from its header before anything is decoded (a small file can
// claim a huge image). Re-encoded by libvips (sharp): every metadata block dropped (EXIF GPS
// would put a contributor's home on the map), the orientation applied to the pixels, a
// display size and a thumbnail made. The original is kept apart, never served.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
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

export interface PreparedPicture {
  type: PictureType;
  /** JPEG, at most DISPLAY_SIDE on its longer side, no metadata. */
  display: Buffer;
  thumbnail: Buffer;
}

export type PictureOutcome = { ok: true; picture: PreparedPicture } | { ok: false; status: 413 | 415 | 400; problem: string };

export async function preparePicture(bytes: Buffer): Promise<PictureOutcome> {
  if (bytes.length > PICTURE_MAX_BYTES) return { ok: false, status: 413, problem: 'A picture is at most 20 MB.' };
  const type = pictureTypeOf(bytes);
  if (type === null) return { ok: false, status: 415, problem: 'That file is not a JPEG, PNG or WebP picture.' };
  let header: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    // The header only: no pixel is decoded here.
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, status: 400, problem: 'That picture cannot be read: it may be damaged.' };
  }
  if (header.format !== type || !header.width || !header.height) return { ok: false, status: 400, problem: 'That picture cannot be read: it may be damaged.' };
  if (header.width * header.height > PICTURE_MAX_PIXELS) {
    return { ok: false, status: 413, problem: `A picture is at most 50 megapixels; this one is ${header.width} × ${header.height}.` };
  }
  try {
    const display = await sharp(bytes, { limitInputPixels: PICTURE_MAX_PIXELS, failOn: 'error' }).rotate()
      .resize(DISPLAY_SIDE, DISPLAY_SIDE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    // From the display size, already turned and without metadata: the original is decoded once.
    const thumbnail = await sharp(display).resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
    return { ok: true, picture: { type, display, thumbnail } };
  } catch {
    return { ok: false, status: 400, problem: 'That picture cannot be read: it may be damaged.' };
  }
}

/** Where pictures wait and originals stay: UPLOADS_DIR, never served. Names are ours (a UUID), never the sender's. */
export class PictureFiles {
  constructor(private readonly uploadsDir: string, private readonly mediaRoot: string) {}

  /** Kept until a decision: the display and thumbnail waiting, the original apart. Returns the upload's name. */
  async keep(original: Buffer, picture: PreparedPicture): Promise<string> {
    const name = randomUUID();
    await fs.mkdir(path.join(this.uploadsDir, 'pending'), { recursive: true });
    await fs.mkdir(path.join(this.uploadsDir, 'originals'), { recursive: true });
    await fs.writeFile(path.join(this.uploadsDir, 'originals', `${name}.${picture.type}`), original, { flag: 'wx' });
    await fs.writeFile(this.pendingPath(name), picture.display, { flag: 'wx' });
    await fs.writeFile(this.pendingPath(name, true), picture.thumbnail, { flag: 'wx' });
    return name;
  }

  /** A waiting picture's display file, for an editor's review; null for a name that is not one of ours. */
  pendingPath(name: string, thumbnail = false): string {
    if (!isUploadName(name)) throw new Error('not an upload name');
    return path.join(this.uploadsDir, 'pending', `${name}${thumbnail ? '-small' : ''}.jpg`);
  }

  /** Copied under the media root before the record that shows it is published. */
  async publish(name: string): Promise<void> {
    const dir = path.join(this.mediaRoot, 'contributions');
    await fs.mkdir(dir, { recursive: true });
    await fs.copyFile(this.pendingPath(name), path.join(dir, `${name}.jpg`));
    await fs.copyFile(this.pendingPath(name, true), path.join(dir, `${name}-small.jpg`));
  }

  /** The published copies taken back (a refused approval). */
  async unpublish(name: string): Promise<void> {
    const dir = path.join(this.mediaRoot, 'contributions');
    await Promise.all([fs.rm(path.join(dir, `${name}.jpg`), { force: true }), fs.rm(path.join(dir, `${name}-small.jpg`), { force: true })]);
  }
}

export const isUploadName = (name: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(name);
