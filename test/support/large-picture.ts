// A large photograph-like picture for issue 49's load test and bench (isolation.ts,
// bench/iiif.ts): a smooth diagonal gradient under a fine grain, as a camera's JPEG, so that
// neither its decode nor its renders' encodes are of a picture that compresses to nothing
// (a flat picture's PNG would be a few kilobytes; this one's are tens of megabytes).
// The same bytes every run: the grain comes from a fixed-seed generator, not Math.random.
import sharp from 'sharp';

export async function largePhotograph(width = 6000, height = 4000): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#8a6"/><stop offset="0.5" stop-color="#c97"/><stop offset="1" stop-color="#357"/></linearGradient><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const scene = await sharp(Buffer.from(svg), { limitInputPixels: false }).removeAlpha().raw().toBuffer();
  for (let i = 0, seed = 49; i < scene.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    scene[i] = Math.max(0, Math.min(255, scene[i]! + ((seed >>> 24) % 61) - 30));
  }
  return sharp(scene, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}
