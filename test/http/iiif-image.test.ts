// The IIIF Image API 3.0 over HTTP (https://iiif.io/api/image/3.0/): every picture's info.json
// holds the specification's required fields and the picture's upright size as sharp reads it
// here; renders have the pixel size worked out by hand from §4 and the pixels sharp makes
// here from the original (cut, scaled, made gray; mirrored and turned by index arithmetic in
// this file); parameters the server cannot serve are refused with 400 naming them; missing
// and unpublished pictures are 404; the base URI redirects; HEAD, revalidation and CORS;
// the limits as configured. Pictures are made by the test (test/support/iiif-catalogue.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import sharp, { type OutputInfo } from 'sharp';
import { IIIF_PATHS } from '../../src/pages/paths.js';
import type { Answer } from '../support/http.js';
import { iiifCatalogue, MISSING_FILE, SERVED_PICTURES, UNPUBLISHED, writeTestPictures, type TestPicture } from '../support/iiif-catalogue.js';
import { startTestServer, temporaryDir, type TestServer } from '../support/server.js';

const { survey, elevation, shopfront, phonePhoto } = SERVED_PICTURES;
const ORIGIN = 'https://viewer.example.org';
/** The served defaults (IIIF_MAX_SIDE, IIIF_MAX_AREA). */
const DEFAULT_LIMITS = { maxWidth: 8192, maxHeight: 8192, maxArea: 4_194_304 };
const SMALL_AREA = 1_000_000;

let root: string;
let t: TestServer;
let small: TestServer;
const originals = new Map<number, Buffer>();

before(async () => {
  root = temporaryDir();
  for (const [id, bytes] of await writeTestPictures(root)) originals.set(id, bytes);
  t = await startTestServer({ catalogue: iiifCatalogue(), settings: { mediaRoot: root } });
  small = await startTestServer({ catalogue: iiifCatalogue(), settings: { mediaRoot: root, iiifMaxArea: String(SMALL_AREA) } });
});
after(async () => {
  await t?.close();
  await small?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const image = (id: number, rest: string) => `${IIIF_PATHS.imageService(id)}/${rest}`;

/** Pixels as red, green, blue, alpha, whatever the channels they came in. */
interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

function rgba(data: Buffer, info: { width: number; height: number; channels: number }): Rgba {
  const out = new Uint8Array(info.width * info.height * 4);
  for (let i = 0, o = 0; o < out.length; i += info.channels, o += 4) {
    const gray = info.channels <= 2;
    out[o] = data[i] ?? 0;
    out[o + 1] = data[gray ? i : i + 1] ?? 0;
    out[o + 2] = data[gray ? i : i + 2] ?? 0;
    out[o + 3] = info.channels === 2 || info.channels === 4 ? (data[i + info.channels - 1] ?? 0) : 255;
  }
  return { width: info.width, height: info.height, data: out };
}

async function decoded(bytes: Buffer): Promise<Rgba> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return rgba(data, info);
}

/** Mirrored left to right, then turned clockwise by `rotation` (§4.3), by index: no library's order of operations in it. */
function turned(p: Rgba, mirror: boolean, rotation: number): Rgba {
  const { width: w, height: h } = p;
  const quarter = rotation === 90 || rotation === 270;
  const out = { width: quarter ? h : w, height: quarter ? w : h, data: new Uint8Array(p.data.length) };
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      // The source pixel (after mirroring) that lands at x, y.
      const [sx, sy] = rotation === 90 ? [y, h - 1 - x] : rotation === 180 ? [w - 1 - x, h - 1 - y] : rotation === 270 ? [w - 1 - y, x] : [x, y];
      const from = (sy * w + (mirror ? w - 1 - sx : sx)) * 4;
      out.data.set(p.data.subarray(from, from + 4), (y * out.width + x) * 4);
    }
  }
  return out;
}

/** The largest of the four channels' mean absolute differences, in levels of 255. */
function meanDifference(a: Rgba, b: Rgba): number {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  const sums = [0, 0, 0, 0];
  for (let i = 0; i < a.data.length; i++) sums[i % 4]! += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return Math.max(...sums) / (a.width * a.height);
}

const uprightCache = new Map<number, Promise<{ data: Buffer; info: OutputInfo }>>();
/** The original's pixels upright (its orientation tag applied), as any viewer shows it. */
function upright(picture: TestPicture) {
  let known = uprightCache.get(picture.id);
  if (known === undefined) {
    known = sharp(originals.get(picture.id)).rotate().raw().toBuffer({ resolveWithObject: true });
    uprightCache.set(picture.id, known);
  }
  return known;
}

/** A render request and what it must be, each number worked out by hand from §4. */
interface RenderCase {
  path: string;
  /** The region cut from the upright picture: x, y, width, height. */
  region: [number, number, number, number];
  /** Its scaled size, before turning. */
  size: [number, number];
  /** The answer's size, after turning. */
  answer: [number, number];
}

function parts(c: RenderCase) {
  const [, , rotation = '', file = ''] = c.path.split('/');
  const format = file.slice(file.indexOf('.') + 1);
  return { mirror: rotation.startsWith('!'), rotation: Number(rotation.replace('!', '')) % 360, gray: file.startsWith('gray.'), format };
}

/** The same request with its mirroring the other way. */
function mirrored(c: RenderCase): RenderCase {
  const [region, size, rotation = '', file] = c.path.split('/');
  return { ...c, path: [region, size, rotation.startsWith('!') ? rotation.slice(1) : `!${rotation}`, file].join('/') };
}

/** What the request's pixels must be: sharp cuts, scales, makes gray and (a JPEG having no alpha) lays on white; the test turns. */
async function expected(picture: TestPicture, c: RenderCase): Promise<Rgba> {
  const source = await upright(picture);
  const [left, top, width, height] = c.region;
  const scaled = await sharp(source.data, { raw: source.info }).extract({ left, top, width, height }).resize(c.size[0], c.size[1], { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const { mirror, rotation, gray, format } = parts(c);
  // Only the shape: sharp marks a scaled picture with alpha `premultiplied`, yet gives it unpremultiplied.
  let made = sharp(scaled.data, { raw: { width: scaled.info.width, height: scaled.info.height, channels: scaled.info.channels } });
  if (gray) made = made.grayscale();
  if (format === 'jpg') made = made.flatten({ background: '#ffffff' });
  // Through PNG (lossless), which keeps a gray picture's alpha where sharp's raw output drops it.
  return turned(await decoded(await made.png().toBuffer()), mirror, rotation);
}

/**
 * How far a render may be from the pixels made here, as the largest channel's mean absolute
 * difference in levels of 255. PNG is lossless and both sides run libvips's own scaling: 0
 * measured, 1 allowed for another build's rounding. JPEG (quality 85, chroma halved) and WebP
 * (quality 82) lose detail, most where a picture is scaled down tenfold and its 64 px
 * chequer becomes 6 px edges: their worst measured 5.4 (JPEG) and 8.3 (WebP), most under 3.
 * The bounds leave half as much again, and stay far below what a wrong render costs: every
 * render is checked to differ by more than twice its bound from its mirror image (the least
 * measured 20.7, a gray one), and a crop 1/8 of its width aside, a mirror or a half turn of a
 * colour one measured 64 to 76.
 */
const TOLERANCE = { png: 1, jpg: 8, webp: 12 } as const;
const CONTENT_TYPES = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;
const SHARP_FORMATS = { jpg: 'jpeg', png: 'png', webp: 'webp' } as const;

const RENDERS: [TestPicture, RenderCase[]][] = [
  [survey, [
    { path: '1000,500,800,600/400,/0/default.jpg', region: [1000, 500, 800, 600], size: [400, 300], answer: [400, 300] },
    { path: 'pct:10,20,50,25/pct:50/0/default.png', region: [300, 400, 1500, 500], size: [750, 250], answer: [750, 250] },
    { path: 'square/,250/0/gray.jpg', region: [500, 0, 2000, 2000], size: [250, 250], answer: [250, 250] },
    // A tile as a deep-zoom viewer asks for it: scale factor 4, the right-hand column (2048 + 952 = 3000).
    { path: '2048,0,952,2000/238,/0/default.jpg', region: [2048, 0, 952, 2000], size: [238, 500], answer: [238, 500] },
    // Cut at the picture's edges (§4.1): 3000 − 2600 by 2000 − 1800.
    { path: '2600,1800,800,400/max/90/default.jpg', region: [2600, 1800, 400, 200], size: [400, 200], answer: [200, 400] },
    { path: 'full/!300,300/180/default.webp', region: [0, 0, 3000, 2000], size: [300, 200], answer: [300, 200] },
    { path: '0,0,600,600/200,100/!0/default.jpg', region: [0, 0, 600, 600], size: [200, 100], answer: [200, 100] },
    { path: '100,100,200,100/^!500,500/270/color.png', region: [100, 100, 200, 100], size: [500, 250], answer: [250, 500] },
  ]],
  [elevation, [
    // The transparent band along the top, and the alpha beneath it, kept.
    { path: '0,0,700,400/max/0/default.png', region: [0, 0, 700, 400], size: [700, 400], answer: [700, 400] },
    { path: 'full/pct:25/!90/default.png', region: [0, 0, 700, 1900], size: [175, 475], answer: [475, 175] },
    // Scaled up, and laid on white, a JPEG having no alpha.
    { path: '0,1000,350,450/^700,/0/default.jpg', region: [0, 1000, 350, 450], size: [700, 900], answer: [700, 900] },
    { path: 'square/100,100/0/gray.png', region: [0, 600, 700, 700], size: [100, 100], answer: [100, 100] },
    // 350 × 200/950 = 73.7.
    { path: 'pct:50,50,50,50/,200/180/default.webp', region: [350, 950, 350, 950], size: [74, 200], answer: [74, 200] },
  ]],
  [shopfront, [
    { path: 'full/max/0/default.jpg', region: [0, 0, 300, 200], size: [300, 200], answer: [300, 200] },
    { path: 'full/^600,400/0/default.png', region: [0, 0, 300, 200], size: [600, 400], answer: [600, 400] },
    { path: '50,50,100,100/50,50/!180/default.webp', region: [50, 50, 100, 100], size: [50, 50], answer: [50, 50] },
    { path: 'pct:0,0,50,50/75,50/270/gray.jpg', region: [0, 0, 150, 100], size: [75, 50], answer: [50, 75] },
  ]],
  [phonePhoto, [
    { path: 'full/max/0/default.jpg', region: [0, 0, 500, 800], size: [500, 800], answer: [500, 800] },
    { path: '0,0,250,400/125,/0/default.png', region: [0, 0, 250, 400], size: [125, 200], answer: [125, 200] },
    { path: 'full/,400/90/default.jpg', region: [0, 0, 500, 800], size: [250, 400], answer: [400, 250] },
  ]],
];

async function render(server: TestServer, id: number, rest: string): Promise<Answer> {
  return server.request(image(id, rest), { timeoutMs: 30_000 });
}

describe('info.json (§5)', () => {
  const uprightSizes: [TestPicture, [number, number], number[]][] = [
    [survey, [3000, 2000], [1, 2, 4, 8]],
    [elevation, [700, 1900], [1, 2, 4]],
    [shopfront, [300, 200], [1]],
    // Stored 800 × 500, turned by its orientation tag.
    [phonePhoto, [500, 800], [1, 2]],
  ];
  for (const [picture, [width, height], scaleFactors] of uprightSizes) {
    test(`${picture.file}: the required fields, its upright size ${width} × ${height}, tiles and sizes within the limits`, async () => {
      const read = await sharp(originals.get(picture.id)).metadata();
      assert.deepEqual([read.autoOrient.width, read.autoOrient.height], [width, height], 'the picture as sharp reads it upright');
      const answer = await t.request(IIIF_PATHS.imageInfo(picture.id));
      assert.equal(answer.status, 200);
      const info = answer.json();
      assert.equal(Object.keys(info)[0], '@context', '@context SHOULD come first');
      assert.equal(info['@context'], 'http://iiif.io/api/image/3/context.json');
      assert.equal(info.id, `${t.origin}/iiif/3/${picture.id}`);
      assert.equal(info.type, 'ImageService3');
      assert.equal(info.protocol, 'http://iiif.io/api/image');
      assert.equal(info.profile, 'level2');
      assert.deepEqual([info.width, info.height], [width, height]);
      assert.deepEqual([info.maxWidth, info.maxHeight, info.maxArea], [DEFAULT_LIMITS.maxWidth, DEFAULT_LIMITS.maxHeight, DEFAULT_LIMITS.maxArea]);
      assert.deepEqual(info.tiles, [{ width: 512, height: 512, scaleFactors }]);
      assert.ok(Array.isArray(info.sizes) && info.sizes.length > 0);
      for (const size of info.sizes) {
        assert.ok(Number.isInteger(size.width) && Number.isInteger(size.height) && size.width > 0 && size.height > 0, JSON.stringify(size));
        assert.ok(size.width <= width && size.height <= height, 'no listed size scales the picture up');
        assert.ok(size.width <= info.maxWidth && size.height <= info.maxHeight && size.width * size.height <= info.maxArea, 'MUST be within the limits');
        // Of the picture's shape, to the pixel a rounding allows.
        assert.ok(Math.abs(size.width - (size.height * width) / height) <= 1 + width / height, JSON.stringify(size));
      }
      assert.ok(Math.max(info.sizes[0].width, info.sizes[0].height) <= 64, 'the smallest is a thumbnail');
    });
  }

  test('a listed size is served as full/w,h/0 at exactly that size (§5.3)', async () => {
    const info = (await t.request(IIIF_PATHS.imageInfo(elevation.id))).json();
    const { width, height } = info.sizes[1];
    const answer = await render(t, elevation.id, `full/${width},${height}/0/default.jpg`);
    assert.equal(answer.status, 200);
    const meta = await sharp(answer.bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [width, height]);
  });

  test('JSON-LD with the profile when Accept asks for it or there is no Accept (§5.1), else plain JSON; the same document', async () => {
    const ld = await t.request(IIIF_PATHS.imageInfo(shopfront.id), { headers: { accept: 'application/ld+json' } });
    assert.equal(ld.headers['content-type'], 'application/ld+json;profile="http://iiif.io/api/image/3/context.json"');
    const plain = await t.request(IIIF_PATHS.imageInfo(shopfront.id), { headers: { accept: 'application/json' } });
    assert.match(String(plain.headers['content-type']), /^application\/json\b/);
    const none = await t.request(IIIF_PATHS.imageInfo(shopfront.id));
    assert.equal(none.headers['content-type'], 'application/ld+json;profile="http://iiif.io/api/image/3/context.json"');
    assert.deepEqual(ld.json(), plain.json());
    assert.match(String(ld.headers.vary), /\bAccept\b/);
  });
});

describe('renders: their size worked out from §4, their pixels against sharp', () => {
  for (const [picture, cases] of RENDERS) {
    for (const c of cases) {
      test(`${picture.file}: ${c.path} → ${c.answer[0]} × ${c.answer[1]}`, async () => {
        const answer = await render(t, picture.id, c.path);
        assert.equal(answer.status, 200, answer.text.slice(0, 300));
        const { format } = parts(c);
        const key = format === 'jpg' || format === 'png' || format === 'webp' ? format : assert.fail(format);
        assert.equal(answer.headers['content-type'], CONTENT_TYPES[key]);
        const meta = await sharp(answer.bytes).metadata();
        assert.equal(meta.format, SHARP_FORMATS[key]);
        assert.deepEqual([meta.width, meta.height], c.answer);
        const got = await decoded(answer.bytes);
        const difference = meanDifference(got, await expected(picture, c));
        assert.ok(difference <= TOLERANCE[key], `mean difference ${difference.toFixed(2)} past ${TOLERANCE[key]}`);
        // The bound tells this render from its mirror image: a wrong render could not pass.
        const miss = meanDifference(got, await expected(picture, mirrored(c)));
        assert.ok(miss > 2 * TOLERANCE[key], `the mirror image differs by ${miss.toFixed(2)} only`);
      });
    }
  }

  test('the tolerance tells renders apart: a crop 1/8 of its width aside, mirrored, or turned differs far more', async () => {
    const c: RenderCase = { path: '1000,500,800,600/400,/0/default.png', region: [1000, 500, 800, 600], size: [400, 300], answer: [400, 300] };
    const right = await expected(survey, c);
    const aside = await expected(survey, { ...c, region: [1100, 500, 800, 600] });
    const mirrored = await expected(survey, { ...c, path: '1000,500,800,600/400,/!0/default.png' });
    const turnedHalf = await expected(survey, { ...c, path: '1000,500,800,600/400,/180/default.png' });
    for (const [wrong, name] of [[aside, 'aside'], [mirrored, 'mirrored'], [turnedHalf, 'turned']] as const) {
      const difference = meanDifference(right, wrong);
      assert.ok(difference > 3 * TOLERANCE.webp, `${name}: ${difference.toFixed(2)}`);
    }
  });

  test('the phone photograph is upright: its stored top-left red block is at the top right, as orientation 6 turns it', async () => {
    const answer = await decoded((await render(t, phonePhoto.id, 'full/max/0/default.png')).bytes);
    const at = (x: number, y: number) => [...answer.data.subarray((y * answer.width + x) * 4, (y * answer.width + x) * 4 + 3)];
    const [r, g, b] = at(answer.width - 50, 50);
    assert.ok(r! > 200 && g! < 60 && b! < 60, `top right ${at(answer.width - 50, 50)}`);
    assert.ok(at(50, 50)[0]! < 100, `top left ${at(50, 50)}`);
  });
});

describe('refusals', () => {
  const invalid: [number, string, string, string][] = [
    [shopfront.id, '300,0,10,10/max/0/default.jpg', 'region', 'a region starting past the right edge'],
    [survey.id, '0,2000,10,10/max/0/default.jpg', 'region', 'a region starting at the bottom edge'],
    [shopfront.id, '0,0,0,10/max/0/default.jpg', 'region', 'a region zero pixels wide'],
    [shopfront.id, 'full/0,/0/default.jpg', 'size', 'a zero size'],
    [shopfront.id, 'full/pct:0/0/default.jpg', 'size', 'zero percent'],
    [shopfront.id, 'full/301,/0/default.jpg', 'size', 'wider than the region without ^'],
    [shopfront.id, '0,0,100,100/150,150/0/default.jpg', 'size', 'larger than a pixel region without ^'],
    [shopfront.id, 'full/pct:120/0/default.jpg', 'size', 'over 100 percent without ^'],
    [survey.id, 'full/^5100,/0/default.jpg', 'size', '5100 × 3400 is past maxArea (16 777 216)'],
    [survey.id, 'full/^9000,10/0/default.jpg', 'size', 'past maxWidth'],
    [shopfront.id, 'full/max/45/default.jpg', 'rotation', 'a rotation of 45'],
    [shopfront.id, 'full/max/22.5/default.png', 'rotation', 'a rotation of 22.5'],
    [shopfront.id, 'full/max/400/default.jpg', 'rotation', 'a rotation past 360'],
    [shopfront.id, 'full/max/0/bitonal.jpg', 'quality', 'bitonal'],
    [shopfront.id, 'full/max/0/default.tif', 'format', 'tif'],
    [shopfront.id, 'full/max/0/default', 'format', 'no format'],
  ];
  for (const [id, rest, parameter, why] of invalid) {
    test(`${why}: 400 naming the ${parameter}`, async () => {
      const answer = await render(t, id, rest);
      assert.equal(answer.status, 400);
      assert.match(String(answer.headers['content-type']), /^application\/json/);
      const body = answer.json();
      assert.deepEqual(Object.keys(body), ['detail']);
      assert.ok(body.detail.startsWith(`Invalid ${parameter}: `), body.detail);
    });
  }

  const absent: [string, string][] = [
    [IIIF_PATHS.imageInfo(999), 'an id no record has'],
    [image(999, 'full/max/0/default.jpg'), 'a render of it'],
    [IIIF_PATHS.imageInfo(UNPUBLISHED.id), 'an unpublished record (its file is there)'],
    [image(UNPUBLISHED.id, 'full/max/0/default.jpg'), 'a render of it'],
    ['/iiif/3/abc/info.json', 'an id that is no number'],
  ];
  for (const [path, why] of absent) {
    test(`${why}: 404, as for any record not found`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.json(), { detail: 'Not found.' });
    });
  }

  for (const path of [IIIF_PATHS.imageInfo(MISSING_FILE.id), image(MISSING_FILE.id, 'full/max/0/default.jpg'), image(MISSING_FILE.id, 'full/max/45/default.tif')]) {
    test(`a published record whose file is missing: 404 saying so (${path})`, async () => {
      const answer = await t.request(path);
      assert.equal(answer.status, 404);
      const body = answer.json();
      assert.deepEqual(Object.keys(body), ['detail']);
      assert.match(body.detail, /missing/);
    });
  }
});

describe('the protocol: the base URI, HEAD, validators, CORS', () => {
  test('GET /iiif/3/{id} is a 303 to its info.json', async () => {
    const answer = await t.request(IIIF_PATHS.imageService(shopfront.id));
    assert.equal(answer.status, 303);
    assert.equal(new URL(String(answer.headers.location), t.origin).pathname, `/iiif/3/${shopfront.id}/info.json`);
  });

  test('HEAD answers a render\'s headers without its body', async () => {
    const path = image(shopfront.id, 'full/150,/0/default.png');
    const get = await t.request(path);
    const head = await t.request(path, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.bytes.length, 0);
    assert.equal(head.headers['content-type'], 'image/png');
    assert.equal(head.headers.etag, get.headers.etag);
    const info = await t.request(IIIF_PATHS.imageInfo(shopfront.id), { method: 'HEAD' });
    assert.equal(info.status, 200);
    assert.equal(info.bytes.length, 0);
  });

  test('If-None-Match with the ETag: 304 without a body, for a render and for info.json', async () => {
    for (const path of [image(survey.id, 'full/188,/0/default.jpg'), IIIF_PATHS.imageInfo(survey.id)]) {
      const first = await t.request(path);
      const etag = String(first.headers.etag);
      assert.match(etag, /^(W\/)?"[^"]+"$/);
      const again = await t.request(path, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304, path);
      assert.equal(again.bytes.length, 0);
      const other = await t.request(path, { headers: { 'if-none-match': '"something-else"' } });
      assert.equal(other.status, 200, path);
    }
  });

  test('two spellings of the same pixels share an ETag; other pixels do not', async () => {
    const tag = async (rest: string) => String((await t.request(image(shopfront.id, rest), { method: 'HEAD' })).headers.etag);
    const full = await tag('full/max/0/default.jpg');
    assert.equal(await tag('0,0,300,200/300,200/0/default.jpg'), full);
    assert.equal(await tag('pct:0,0,100,100/pct:100/360/default.jpg'), full);
    assert.notEqual(await tag('full/max/0/default.png'), full);
    assert.notEqual(await tag('full/max/!0/default.jpg'), full);
    assert.notEqual(await tag('0,0,299,200/max/0/default.jpg'), full);
  });

  test('with an Origin: Access-Control-Allow-Origin on info.json, a render, a 400 and a 404', async () => {
    const paths = [IIIF_PATHS.imageInfo(shopfront.id), image(shopfront.id, 'full/100,/0/default.jpg'), image(shopfront.id, 'full/max/45/default.jpg'), IIIF_PATHS.imageInfo(999)];
    for (const path of paths) {
      const answer = await t.request(path, { headers: { origin: ORIGIN } });
      assert.equal(answer.headers['access-control-allow-origin'], '*', `${path}: ${answer.status}`);
    }
  });

  test('a preflight from a viewer on another site is answered', async () => {
    const answer = await t.request(image(shopfront.id, 'full/100,/0/default.jpg'), {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    assert.ok(answer.status === 200 || answer.status === 204, String(answer.status));
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.match(String(answer.headers['access-control-allow-methods']), /\bGET\b/);
  });
});

describe(`settings: IIIF_MAX_AREA=${SMALL_AREA}`, () => {
  test('info.json declares it, and lists no size past it', async () => {
    const info = (await small.request(IIIF_PATHS.imageInfo(survey.id))).json();
    assert.equal(info.maxArea, SMALL_AREA);
    assert.deepEqual([info.width, info.height], [3000, 2000]);
    assert.deepEqual(info.sizes.at(-1), { width: 750, height: 500 }, '3000 × 2000 halved until within 1 000 000 pixels: 1500 × 1000 is 1 500 000');
  });

  const scaled: [TestPicture, string, [number, number], string][] = [
    [survey, 'full/max/0/default.jpg', [1224, 816], '3000 × 2000 by √(1 000 000 / 6 000 000) = 0.408: 1224.7 × 816.5, rounded down'],
    [elevation, 'full/max/0/default.png', [606, 1647], '700 × 1900 by √(1 000 000 / 1 330 000) = 0.867: 606.98 × 1647.5, rounded down'],
    [survey, 'full/!2000,2000/0/default.jpg', [1224, 816], '!w,h is as large as the limits allow, not refused'],
    [shopfront, 'full/^max/0/default.jpg', [1224, 816], '^max: 300 × 200 scaled up by √(1 000 000 / 60 000) = 4.08'],
  ];
  for (const [picture, rest, [width, height], why] of scaled) {
    test(`${picture.file}: ${rest} → ${width} × ${height} (${why})`, async () => {
      const answer = await render(small, picture.id, rest);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      const meta = await sharp(answer.bytes).metadata();
      assert.deepEqual([meta.width, meta.height], [width, height]);
      assert.ok(width * height <= SMALL_AREA);
    });
  }

  test('a size past it is refused, naming the size; the same size from the default server is served', async () => {
    const answer = await render(small, survey.id, 'full/1300,/0/default.jpg');
    assert.equal(answer.status, 400);
    assert.ok(answer.json().detail.startsWith('Invalid size: '));
    const served = await t.request(image(survey.id, 'full/1300,/0/default.jpg'), { method: 'HEAD', timeoutMs: 30_000 });
    assert.equal(served.status, 200);
  });
});
