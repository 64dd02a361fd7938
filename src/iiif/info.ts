// A picture's IIIF Image Information (info.json, Image API 3.0 §5): its size, what this
// server serves of it (compliance level 2, with mirroring, upscaling within the limits,
// gray and WebP beside), and the tiles and sizes that let a deep-zoom viewer ask for a
// screenful of small renders, not the whole picture at once.
import type { ImageLimits, PixelSize } from './image-request.js';

export const IMAGE_CONTEXT = 'http://iiif.io/api/image/3/context.json';
/** info.json's media type when a client asks for JSON-LD (§5.1). */
export const IMAGE_INFO_JSON_LD = `application/ld+json;profile="${IMAGE_CONTEXT}"`;

/** The side of a tile: 512 px keeps a screenful to about a dozen requests. */
export const TILE_SIDE = 512;
/** The smallest size listed: a thumbnail. */
const SMALLEST_SIDE = 64;

/** Scale factors 1, 2, 4… up to the first at which the whole picture fits one tile. */
export function scaleFactors(picture: PixelSize): number[] {
  const factors = [1];
  for (let f = 1; Math.max(picture.width, picture.height) / f > TILE_SIDE; ) {
    f *= 2;
    factors.push(f);
  }
  return factors;
}

/** The picture at each scale factor that the limits allow, smallest first (viewers pick a thumbnail from them), down to a thumbnail's size. */
export function listedSizes(picture: PixelSize, limits: ImageLimits): PixelSize[] {
  const sizes: PixelSize[] = [];
  for (let f = 1; ; f *= 2) {
    const size = { width: Math.ceil(picture.width / f), height: Math.ceil(picture.height / f) };
    const allowed = size.width <= limits.maxWidth && size.height <= limits.maxHeight && size.width * size.height <= limits.maxArea;
    if (allowed) sizes.unshift(size);
    if (Math.max(size.width, size.height) <= SMALLEST_SIDE || f > 2 ** 20) return sizes;
  }
}

/** `serviceId`: the image's base URI, `{base}/iiif/3/{identifier}`. */
export function imageInfo(serviceId: string, picture: PixelSize, limits: ImageLimits, rights: string | null): Record<string, unknown> {
  return {
    '@context': IMAGE_CONTEXT,
    id: serviceId,
    type: 'ImageService3',
    protocol: 'http://iiif.io/api/image',
    profile: 'level2',
    width: picture.width,
    height: picture.height,
    maxWidth: limits.maxWidth,
    maxHeight: limits.maxHeight,
    maxArea: limits.maxArea,
    sizes: listedSizes(picture, limits),
    tiles: [{ width: TILE_SIDE, height: TILE_SIDE, scaleFactors: scaleFactors(picture) }],
    extraQualities: ['color', 'gray'],
    extraFormats: ['webp'],
    extraFeatures: ['mirroring', 'sizeUpscaling'],
    ...(rights === null ? {} : { rights }),
  };
}
