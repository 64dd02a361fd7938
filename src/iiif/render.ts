// A request's pixels made by libvips (sharp), in the render process (render-child.ts): the
// source decoded once, upright, into raw pixels kept for the next requests of the same
// picture (a deep-zoom viewer asks for tens of tiles of one picture at once: each is then a
// crop and a scale of memory, not a decode of the whole file), recent sources within a byte
// budget; then the region cut, scaled, mirrored, turned, made gray, encoded.
import sharp from 'sharp';
import type { ImageTransform, PixelSize } from './image-request.js';
import type { PictureSource, RenderJob, RenderReply } from './render-jobs.js';

/** The largest picture read (a decoded 100-megapixel picture is 300 MB of RGB). */
export const SOURCE_MAX_PIXELS = 100_000_000;
/**
 * Decoded sources kept, at most this many bytes: three 24-megapixel pictures. A source
 * larger than half of it is decoded for each render and not kept (the process's memory
 * stays bounded under a crowd of renders: the isolation test's).
 */
const DECODED_BUDGET = 256 * 1024 * 1024;

// One libvips thread per render, no cache of libvips's own: the kept sources are the cache.
sharp.concurrency(1);
sharp.cache(false);

interface Decoded {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Most recently used last. */
const decoded = new Map<string, Decoded>();
let decodedBytes = 0;
/**
 * Decodes under way by source: the requests at once for a picture not yet kept (a viewer's
 * first screenful) share one, instead of each holding a decoded copy (and each kept, its
 * bytes counted twice against the budget).
 */
const decoding = new Map<string, Promise<Loaded>>();

function keep(key: string, picture: Decoded): void {
  if (picture.pixels.length > DECODED_BUDGET / 2) return;
  decoded.set(key, picture);
  decodedBytes += picture.pixels.length;
  for (const [oldKey, old] of decoded) {
    if (decodedBytes <= DECODED_BUDGET || oldKey === key) break;
    decoded.delete(oldKey);
    decodedBytes -= old.pixels.length;
  }
}

function recalled(key: string): Decoded | undefined {
  const picture = decoded.get(key);
  if (picture !== undefined) {
    decoded.delete(key);
    decoded.set(key, picture);
  }
  return picture;
}

type Loaded = { ok: true; picture: Decoded } | { ok: false; problem: 'needBytes' | 'unreadable' | 'tooLarge' };

async function load(source: PictureSource): Promise<Loaded> {
  const known = recalled(source.key);
  if (known !== undefined) return { ok: true, picture: known };
  const underway = decoding.get(source.key);
  if (underway !== undefined) return underway;
  const input = source.bytes ?? source.path;
  if (input === undefined) return { ok: false, problem: 'needBytes' };
  const decodingNow = decode(source.key, input).finally(() => decoding.delete(source.key));
  decoding.set(source.key, decodingNow);
  return decodingNow;
}

async function decode(key: string, input: Uint8Array | string): Promise<Loaded> {
  try {
    const header = await sharp(input, { limitInputPixels: false }).metadata();
    if (!header.width || !header.height) return { ok: false, problem: 'unreadable' };
    if (header.width * header.height > SOURCE_MAX_PIXELS) return { ok: false, problem: 'tooLarge' };
    // Upright by its orientation tag, as every viewer shows it.
    const { data, info } = await sharp(input, { limitInputPixels: SOURCE_MAX_PIXELS, failOn: 'error' }).rotate().raw().toBuffer({ resolveWithObject: true });
    const channels = info.channels;
    const picture: Decoded = { pixels: data, width: info.width, height: info.height, channels };
    keep(key, picture);
    return { ok: true, picture };
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
}

async function encode(picture: Decoded, t: ImageTransform): Promise<Buffer> {
  const raw = { width: picture.width, height: picture.height, channels: picture.channels };
  // One pipeline, streamed a strip at a time (a second one held the scaled region whole: 50 MB
  // at 16 megapixels): sharp runs its operations in the order they are called, so the cut and
  // the scale come before the mirror and the turn, as §4 orders them (the pixel tests check it).
  let image = sharp(picture.pixels, { raw })
    .extract({ left: t.region.x, top: t.region.y, width: t.region.width, height: t.region.height })
    .resize(t.size.width, t.size.height, { fit: 'fill' });
  if (t.mirror) image = image.flop();
  if (t.rotation !== 0) image = image.rotate(t.rotation);
  if (t.quality === 'gray') image = image.grayscale();
  if (t.format === 'jpg') return image.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
  if (t.format === 'png') return image.png({ compressionLevel: 4 }).toBuffer();
  return image.webp({ quality: 82, effort: 2 }).toBuffer();
}

/** A picture's upright size from its header alone (no pixel decoded), unless it is decoded already. */
async function sizeOf(source: PictureSource): Promise<RenderReply> {
  const known = decoded.get(source.key);
  if (known !== undefined) return { ok: true, size: { width: known.width, height: known.height } };
  const input = source.bytes ?? source.path;
  if (input === undefined) return { ok: false, problem: 'needBytes' };
  try {
    const header = await sharp(input, { limitInputPixels: false }).metadata();
    if (!header.width || !header.height) return { ok: false, problem: 'unreadable' };
    if (header.width * header.height > SOURCE_MAX_PIXELS) return { ok: false, problem: 'tooLarge' };
    // Orientations 5 to 8 turn the picture a quarter: its upright width is its stored height.
    const turned = (header.orientation ?? 1) >= 5;
    return { ok: true, size: turned ? { width: header.height, height: header.width } : { width: header.width, height: header.height } };
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
}

export async function runRenderJob(job: RenderJob): Promise<RenderReply> {
  if (job.kind === 'size') return sizeOf(job.source);
  const loaded = await load(job.source);
  if (!loaded.ok) return loaded;
  const size: PixelSize = { width: loaded.picture.width, height: loaded.picture.height };
  try {
    return { ok: true, size, bytes: await encode(loaded.picture, job.transform) };
  } catch {
    return { ok: false, problem: 'unreadable' };
  }
}
