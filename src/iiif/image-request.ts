// An IIIF Image API 3.0 request's four parameters ({region}/{size}/{rotation}/{quality}.{format})
// read against one picture's size and the server's limits: the pixels asked for, in the
// specification's order of operations (region, size, rotation, quality, format), or the
// parameter that cannot be served and why. Pure: the same request and picture, the same
// answer, whatever renders it (render.ts) or caches it (its canonical form, the cache's key).
// https://iiif.io/api/image/3.0/#4-image-requests; compliance level 2 and the optional
// features info.ts declares (mirroring, upscaling, gray, webp).

/** A picture's pixel size. */
export interface PixelSize {
  width: number;
  height: number;
}

/** What the server serves of any picture: declared in every info.json (maxWidth, maxHeight, maxArea). */
export interface ImageLimits {
  maxWidth: number;
  maxHeight: number;
  maxArea: number;
}

export const QUALITIES = ['default', 'color', 'gray'] as const;
export type Quality = (typeof QUALITIES)[number];
export const FORMATS = ['jpg', 'png', 'webp'] as const;
export type ImageFormat = (typeof FORMATS)[number];

export const CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** The pixels a request asks for: a rectangle of the picture, the size it is scaled to, then turned. */
export interface ImageTransform {
  region: { x: number; y: number; width: number; height: number };
  /** The scaled region's size, before rotation. */
  size: PixelSize;
  /** Flipped left to right before it is turned. */
  mirror: boolean;
  rotation: 0 | 90 | 180 | 270;
  quality: Quality;
  format: ImageFormat;
}

export type ImageParameter = 'region' | 'size' | 'rotation' | 'quality' | 'format';

/** A parameter the server cannot serve, and why (the 400's sentence names it). */
export interface ParameterProblem {
  parameter: ImageParameter;
  problem: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: ParameterProblem };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const refuse = (parameter: ImageParameter, problem: string): Parsed<never> => ({ ok: false, problem: { parameter, problem } });

const WHOLE = /^(0|[1-9][0-9]{0,8})$/;
const DECIMAL = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,9})?$/;

const whole = (text: string): number | null => (WHOLE.test(text) ? Number(text) : null);
const decimal = (text: string): number | null => (DECIMAL.test(text) ? Number(text) : null);

type Region = ImageTransform['region'];

/** `full`, `square`, `x,y,w,h` in pixels or `pct:x,y,w,h`; cut at the picture's edges (§4.1). */
export function parseRegion(text: string, picture: PixelSize): Parsed<Region> {
  const { width: W, height: H } = picture;
  if (text === 'full') return ok({ x: 0, y: 0, width: W, height: H });
  if (text === 'square') {
    const side = Math.min(W, H);
    return ok({ x: Math.floor((W - side) / 2), y: Math.floor((H - side) / 2), width: side, height: side });
  }
  const percent = text.startsWith('pct:');
  const parts = (percent ? text.slice(4) : text).split(',');
  const numbers = parts.map(percent ? decimal : whole);
  const [x, y, w, h] = numbers;
  if (parts.length !== 4 || x == null || y == null || w == null || h == null) {
    return refuse('region', 'expected full, square, x,y,w,h (whole pixels) or pct:x,y,w,h (percentages)');
  }
  const box = percent
    ? { x: Math.round((x * W) / 100), y: Math.round((y * H) / 100), width: Math.round((w * W) / 100), height: Math.round((h * H) / 100) }
    : { x, y, width: w, height: h };
  if (box.width === 0 || box.height === 0) return refuse('region', 'its width and height must be more than zero pixels');
  if (box.x >= W || box.y >= H) return refuse('region', `it lies outside the picture, which is ${W} × ${H} pixels`);
  return ok({ x: box.x, y: box.y, width: Math.min(box.width, W - box.x), height: Math.min(box.height, H - box.y) });
}

/** The largest size of this aspect within the limits, and no larger than `cap` (the region when not upscaling). */
function fitted(aspect: PixelSize, limits: ImageLimits, cap: PixelSize | null): PixelSize {
  let scale = Math.min(limits.maxWidth / aspect.width, limits.maxHeight / aspect.height, Math.sqrt(limits.maxArea / (aspect.width * aspect.height)));
  if (cap !== null) scale = Math.min(scale, cap.width / aspect.width, cap.height / aspect.height);
  return roundedSize(aspect, scale);
}

/** Scaled, each side at least 1 pixel, and never rounded past the limits. */
function roundedSize(aspect: PixelSize, scale: number): PixelSize {
  return { width: Math.max(1, Math.floor(aspect.width * scale + 1e-9)), height: Math.max(1, Math.floor(aspect.height * scale + 1e-9)) };
}

const SIZE_SHAPES = 'max, w, ,h, pct:n, w,h or !w,h, each after ^ to allow upscaling';

/** What `full/max` serves of a picture: its whole size, or the largest within the limits. */
export function maxSize(picture: PixelSize, limits: ImageLimits): PixelSize {
  return fitted(picture, limits, picture);
}

/** The size (§4.2): `max`, `w,`, `,h`, `pct:n`, `w,h`, `!w,h`, each after `^` to allow scaling past the region. */
export function parseSize(text: string, region: PixelSize, limits: ImageLimits): Parsed<PixelSize> {
  const upscale = text.startsWith('^');
  const body = upscale ? text.slice(1) : text;
  if (body === 'max') return ok(fitted(region, limits, upscale ? null : region));
  if (body.startsWith('!')) return confinedSize(body.slice(1), region, limits, upscale);
  const asked = askedSize(body, region);
  if (asked === null) return refuse('size', `expected ${SIZE_SHAPES}`);
  if (asked.width === 0 || asked.height === 0) return refuse('size', 'the size asked for is zero pixels wide or high');
  if (!upscale && (asked.width > region.width || asked.height > region.height)) {
    return refuse('size', `${asked.width} × ${asked.height} is larger than the region (${region.width} × ${region.height}): add ^ to ask for it scaled up`);
  }
  if (!withinLimits(asked, limits)) {
    return refuse('size', `${asked.width} × ${asked.height} is past this server's limits (maxWidth ${limits.maxWidth}, maxHeight ${limits.maxHeight}, maxArea ${limits.maxArea} pixels)`);
  }
  return ok(asked);
}

const withinLimits = (size: PixelSize, limits: ImageLimits) =>
  size.width <= limits.maxWidth && size.height <= limits.maxHeight && size.width * size.height <= limits.maxArea;

/**
 * `!w,h`: the region's shape as large as fits within w × h, the limits and, without `^`, the
 * region itself: never refused for being too large, as the other shapes are (§4.2: "as large
 * as possible but not larger than the extracted region, w or h, or server-imposed limits").
 */
function confinedSize(body: string, region: PixelSize, limits: ImageLimits, upscale: boolean): Parsed<PixelSize> {
  const parts = body.split(',');
  const [w, h] = parts.map(whole);
  if (parts.length !== 2 || w == null || h == null) return refuse('size', `expected ${SIZE_SHAPES}`);
  const scale = Math.min(w / region.width, h / region.height, upscale ? Infinity : 1);
  const size = { width: Math.round(region.width * scale), height: Math.round(region.height * scale) };
  if (size.width === 0 || size.height === 0) return refuse('size', 'the size asked for is zero pixels wide or high');
  return ok(withinLimits(size, limits) ? size : fitted(region, limits, size));
}

/** The pixels a size's text asks for (`w,`, `,h`, `pct:n`, `w,h`), or null when it is none of the shapes. */
function askedSize(body: string, region: PixelSize): PixelSize | null {
  if (body.startsWith('pct:')) {
    const n = decimal(body.slice(4));
    return n === null ? null : { width: Math.round((region.width * n) / 100), height: Math.round((region.height * n) / 100) };
  }
  const parts = body.split(',');
  if (parts.length !== 2) return null;
  const [wText = '', hText = ''] = parts;
  const w = wText === '' ? null : whole(wText);
  const h = hText === '' ? null : whole(hText);
  if ((wText !== '' && w === null) || (hText !== '' && h === null)) return null;
  if (w !== null && h !== null) return { width: w, height: h };
  if (w !== null) return { width: w, height: Math.round((region.height * w) / region.width) };
  if (h !== null) return { width: Math.round((region.width * h) / region.height), height: h };
  return null;
}

/** `n` or `!n` (mirrored first), n a multiple of 90 from 0 to 360 (§4.3). */
export function parseRotation(text: string): Parsed<{ mirror: boolean; rotation: ImageTransform['rotation'] }> {
  const mirror = text.startsWith('!');
  const degrees = decimal(mirror ? text.slice(1) : text);
  if (degrees === null || degrees > 360) return refuse('rotation', 'expected a number of degrees from 0 to 360, after ! to mirror');
  if (degrees % 90 !== 0) return refuse('rotation', 'this server turns pictures by multiples of 90 degrees only');
  const rotation = degrees % 360;
  return rotation === 0 || rotation === 90 || rotation === 180 || rotation === 270 ? ok({ mirror, rotation }) : refuse('rotation', 'expected a multiple of 90');
}

/** `{quality}.{format}` (§4.4, §4.5). */
export function parseQualityFormat(text: string): Parsed<{ quality: Quality; format: ImageFormat }> {
  const dot = text.lastIndexOf('.');
  if (dot === -1) return refuse('format', `expected {quality}.{format}, with a format of ${FORMATS.join(', ')}`);
  const quality = QUALITIES.find((q) => q === text.slice(0, dot));
  const format = FORMATS.find((f) => f === text.slice(dot + 1));
  if (quality === undefined) return refuse('quality', `expected ${QUALITIES.join(', ')}`);
  if (format === undefined) return refuse('format', `expected ${FORMATS.join(', ')}`);
  return ok({ quality, format });
}

export interface ImageRequestText {
  region: string;
  size: string;
  rotation: string;
  qualityFormat: string;
}

/** The four parameters read in order against the picture: the first that cannot be served is the one named. */
export function readImageRequest(text: ImageRequestText, picture: PixelSize, limits: ImageLimits): Parsed<ImageTransform> {
  const region = parseRegion(text.region, picture);
  if (!region.ok) return region;
  const size = parseSize(text.size, region.value, limits);
  if (!size.ok) return size;
  const turn = parseRotation(text.rotation);
  if (!turn.ok) return turn;
  const output = parseQualityFormat(text.qualityFormat);
  if (!output.ok) return output;
  return ok({ region: region.value, size: size.value, ...turn.value, ...output.value });
}

/**
 * The request's canonical form (§4.8): `full` or x,y,w,h; `max` when that is the size (`^max`
 * when it is the largest upscaled size), else w,h (`^w,h` when it scales the region up); the
 * rotation as a whole number; the quality and format as asked. Two requests of the same pixels
 * share it: the cache keeps one answer for both.
 */
export function canonicalPath(t: ImageTransform, picture: PixelSize, limits: ImageLimits): string {
  const r = t.region;
  const full = r.x === 0 && r.y === 0 && r.width === picture.width && r.height === picture.height;
  const upscaled = t.size.width > r.width || t.size.height > r.height;
  const max = fitted(r, limits, upscaled ? null : r);
  const size = `${upscaled ? '^' : ''}${t.size.width === max.width && t.size.height === max.height ? 'max' : `${t.size.width},${t.size.height}`}`;
  return `${full ? 'full' : `${r.x},${r.y},${r.width},${r.height}`}/${size}/${t.mirror ? '!' : ''}${t.rotation}/${t.quality}.${t.format}`;
}
