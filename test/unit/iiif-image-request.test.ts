// The IIIF Image API 3.0 request grammar (src/iiif/image-request.ts) and info.json's tiles and
// sizes (src/iiif/info.ts), against values worked out by hand from the specification's rules
// (https://iiif.io/api/image/3.0/ §4, §5). Where the specification gives an example, the
// example's picture is used: 300 × 200 pixels (its region 125,15,200,200 is "returned as 175,185").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalPath, parseQualityFormat, parseRegion, parseRotation, parseSize, readImageRequest, type ImageLimits, type ImageParameter, type Parsed, type PixelSize } from '../../src/iiif/image-request.js';
import { listedSizes, scaleFactors } from '../../src/iiif/info.js';

const SPEC_PICTURE: PixelSize = { width: 300, height: 200 };
const LANDSCAPE: PixelSize = { width: 1000, height: 600 };
const PORTRAIT: PixelSize = { width: 600, height: 1000 };
/** Limits no case below reaches unless it says so. */
const ROOMY: ImageLimits = { maxWidth: 10_000, maxHeight: 10_000, maxArea: 100_000_000 };

function value<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) assert.fail(`refused: ${parsed.problem.parameter}: ${parsed.problem.problem}`);
  return parsed.value;
}

function refused<T>(parsed: Parsed<T>, parameter: ImageParameter): void {
  assert.equal(parsed.ok, false, `expected a refusal naming ${parameter}, got ${JSON.stringify(parsed)}`);
  if (!parsed.ok) {
    assert.equal(parsed.problem.parameter, parameter);
    assert.ok(parsed.problem.problem.length > 0);
  }
}

const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

describe('region (§4.1)', () => {
  const cases: [string, PixelSize, ReturnType<typeof box>, string][] = [
    ['full', LANDSCAPE, box(0, 0, 1000, 600), 'the whole picture'],
    ['square', LANDSCAPE, box(200, 0, 600, 600), 'the shorter side, centred in the longer: (1000 − 600) / 2 = 200'],
    ['square', PORTRAIT, box(0, 200, 600, 600), 'centred down a portrait picture'],
    ['square', { width: 500, height: 500 }, box(0, 0, 500, 500), 'a square picture is its own square'],
    ['10,20,300,400', LANDSCAPE, box(10, 20, 300, 400), 'pixels as given'],
    ['125,15,120,140', SPEC_PICTURE, box(125, 15, 120, 140), "the specification's example 3"],
    ['pct:41.6,7.5,40,70', SPEC_PICTURE, box(125, 15, 120, 140), "example 4: 41.6 % of 300 = 124.8, 7.5 % of 200 = 15, 40 % of 300 = 120, 70 % of 200 = 140"],
    ['pct:10,20,50,25', LANDSCAPE, box(100, 120, 500, 150), '10 % of 1000, 20 % of 600, 50 % of 1000, 25 % of 600'],
    ['125,15,200,200', SPEC_PICTURE, box(125, 15, 175, 185), 'example 5: cut at the edges, "returned image is 175,185"'],
    ['pct:41.6,7.5,66.6,100', SPEC_PICTURE, box(125, 15, 175, 185), 'example 6: the same cut in percent'],
    ['0,0,5000,5000', LANDSCAPE, box(0, 0, 1000, 600), 'larger than the picture: the whole picture'],
    ['999,599,10,10', LANDSCAPE, box(999, 599, 1, 1), 'the last pixel'],
  ];
  for (const [text, picture, expected, why] of cases) {
    test(`${text} of ${picture.width} × ${picture.height} → ${expected.x},${expected.y},${expected.width},${expected.height} (${why})`, () => {
      assert.deepEqual(value(parseRegion(text, picture)), expected);
    });
  }

  const refusals: [string, string][] = [
    ['1000,0,10,10', 'starts at the right edge: entirely outside'],
    ['0,600,10,10', 'starts at the bottom edge'],
    ['5000,5000,10,10', 'far outside'],
    ['pct:100,0,10,10', 'starts at 100 % of the width'],
    ['0,0,0,10', 'zero width'],
    ['0,0,10,0', 'zero height'],
    ['pct:0,0,0,50', 'zero width in percent'],
    ['-1,0,10,10', 'a negative number'],
    ['1,2,3', 'three numbers'],
    ['1,2,3,4,5', 'five numbers'],
    ['0.5,0,10,10', 'a fraction of a pixel outside pct:'],
    ['pct:a,0,10,10', 'not a number'],
    ['Full', 'keywords are lower case'],
    ['', 'empty'],
  ];
  for (const [text, why] of refusals) {
    test(`${JSON.stringify(text)} is refused, naming the region (${why})`, () => refused(parseRegion(text, LANDSCAPE), 'region'));
  }
});

describe('size (§4.2)', () => {
  const size = (width: number, height: number): PixelSize => ({ width, height });
  const cases: [string, PixelSize, ImageLimits, PixelSize, string][] = [
    ['max', SPEC_PICTURE, ROOMY, size(300, 200), 'within the limits: the region itself'],
    ['max', SPEC_PICTURE, { maxWidth: 200, maxHeight: 10_000, maxArea: 100_000_000 }, size(200, 133), "example 1 (maxWidth 200): 200 × 200/300 × 200 = 133.3, rounded down to stay within"],
    ['max', size(3000, 2000), { maxWidth: 1500, maxHeight: 10_000, maxArea: 100_000_000 }, size(1500, 1000), 'past maxWidth: scaled to it'],
    ['max', size(2000, 3000), { maxWidth: 10_000, maxHeight: 1500, maxArea: 100_000_000 }, size(1000, 1500), 'past maxHeight: scaled to it'],
    ['max', size(3000, 2000), { maxWidth: 10_000, maxHeight: 10_000, maxArea: 1_500_000 }, size(1500, 1000), 'past maxArea: scaled by √(1 500 000 / 6 000 000) = 1/2'],
    ['max', size(1000, 700), { maxWidth: 10_000, maxHeight: 10_000, maxArea: 100_000 }, size(377, 264), 'past maxArea by an irrational scale, √(1/7): 377.96 × 264.58 down (378 × 265 = 100 170 is past 100 000)'],
    ['^max', SPEC_PICTURE, { maxWidth: 360, maxHeight: 10_000, maxArea: 100_000_000 }, size(360, 240), 'example 1 upscaled (maxWidth 360)'],
    ['^max', SPEC_PICTURE, { maxWidth: 10_000, maxHeight: 10_000, maxArea: 240_000 }, size(600, 400), 'upscaled to maxArea: √(240 000 / 60 000) = 2'],
    ['150,', SPEC_PICTURE, ROOMY, size(150, 100), 'example 2'],
    ['^360,', SPEC_PICTURE, ROOMY, size(360, 240), 'example 2 upscaled'],
    [',150', SPEC_PICTURE, ROOMY, size(225, 150), 'example 3'],
    ['^,240', SPEC_PICTURE, ROOMY, size(360, 240), 'example 3 upscaled'],
    ['pct:50', SPEC_PICTURE, ROOMY, size(150, 100), 'example 4'],
    ['^pct:120', SPEC_PICTURE, ROOMY, size(360, 240), 'example 4 upscaled'],
    ['pct:100', SPEC_PICTURE, ROOMY, size(300, 200), 'a hundred percent is the region'],
    ['225,100', SPEC_PICTURE, ROOMY, size(225, 100), 'example 5: distorted'],
    ['^360,360', SPEC_PICTURE, ROOMY, size(360, 360), 'example 5 upscaled'],
    ['^400,100', SPEC_PICTURE, ROOMY, size(400, 100), 'upscaled one way, reduced the other'],
    ['!225,100', SPEC_PICTURE, ROOMY, size(150, 100), 'example 6: "returned image is 150,100"'],
    ['^!360,360', SPEC_PICTURE, ROOMY, size(360, 240), 'example 6 upscaled: "360,240"'],
    ['!400,400', SPEC_PICTURE, ROOMY, size(300, 200), '!w,h past the region without ^: as large as possible but not larger than the region'],
    ['!1000,1000', size(3000, 2000), { maxWidth: 800, maxHeight: 10_000, maxArea: 100_000_000 }, size(800, 533), '!w,h past the limits: not larger than them either (2000 × 800/3000 = 533.3)'],
    ['300,', size(3000, 2000), ROOMY, size(300, 200), 'w, on a large region'],
    [',1', size(3000, 2000), ROOMY, size(2, 1), ',h at its smallest: 1.5 rounds to 2'],
  ];
  for (const [text, region, limits, expected, why] of cases) {
    test(`${text} of ${region.width} × ${region.height} → ${expected.width} × ${expected.height} (${why})`, () => {
      assert.deepEqual(value(parseSize(text, region, limits)), expected);
    });
  }

  const limited: ImageLimits = { maxWidth: 1000, maxHeight: 800, maxArea: 400_000 };
  const refusals: [string, PixelSize, ImageLimits, string][] = [
    ['301,', SPEC_PICTURE, ROOMY, 'w, wider than the region without ^'],
    [',201', SPEC_PICTURE, ROOMY, ',h higher than the region without ^'],
    ['pct:101', SPEC_PICTURE, ROOMY, 'pct: over 100 without ^'],
    ['400,200', SPEC_PICTURE, ROOMY, 'w,h wider than the region without ^'],
    ['300,201', SPEC_PICTURE, ROOMY, 'w,h a pixel higher than the region without ^'],
    ['^1001,', SPEC_PICTURE, limited, 'past maxWidth, even with ^'],
    ['^,801', SPEC_PICTURE, limited, 'past maxHeight, even with ^'],
    ['1000,800', size(3000, 2000), limited, 'within maxWidth and maxHeight but 800 000 pixels, past maxArea'],
    ['1000,', size(3000, 2000), limited, '1000 × 667, past maxArea'],
    ['0,', SPEC_PICTURE, ROOMY, 'zero wide'],
    [',0', SPEC_PICTURE, ROOMY, 'zero high'],
    ['0,0', SPEC_PICTURE, ROOMY, 'zero by zero'],
    ['pct:0', SPEC_PICTURE, ROOMY, 'zero percent'],
    ['!0,100', SPEC_PICTURE, ROOMY, 'a zero box'],
    ['10,', size(300, 2), ROOMY, 'rounds to zero high: 2 × 10/300 = 0.07'],
    ['full', SPEC_PICTURE, ROOMY, 'full is no size in version 3'],
    [',', SPEC_PICTURE, ROOMY, 'neither side'],
    ['!100,', SPEC_PICTURE, ROOMY, '!w,h needs both'],
    ['pct:', SPEC_PICTURE, ROOMY, 'pct: without a number'],
    ['-10,', SPEC_PICTURE, ROOMY, 'a negative width'],
    ['^', SPEC_PICTURE, ROOMY, '^ alone'],
  ];
  for (const [text, region, limits, why] of refusals) {
    test(`${JSON.stringify(text)} of ${region.width} × ${region.height} is refused, naming the size (${why})`, () => refused(parseSize(text, region, limits), 'size'));
  }
});

describe('rotation (§4.3)', () => {
  const cases: [string, boolean, 0 | 90 | 180 | 270][] = [
    ['0', false, 0], ['90', false, 90], ['180', false, 180], ['270', false, 270], ['360', false, 0],
    ['!0', true, 0], ['!90', true, 90], ['!180', true, 180], ['!270', true, 270], ['!360', true, 0],
  ];
  for (const [text, mirror, rotation] of cases) {
    test(`${text} → ${mirror ? 'mirrored, then ' : ''}turned ${rotation}°`, () => assert.deepEqual(value(parseRotation(text)), { mirror, rotation }));
  }
  for (const [text, why] of [['22.5', 'not a multiple of 90 (level 2 needs only those)'], ['45', 'not a multiple of 90'], ['400', 'past 360'], ['-90', 'negative'], ['!', 'no number'], ['!!90', 'two !'], ['ninety', 'not a number'], ['', 'empty']] as const) {
    test(`${JSON.stringify(text)} is refused, naming the rotation (${why})`, () => refused(parseRotation(text), 'rotation'));
  }
});

describe('quality and format (§4.4, §4.5)', () => {
  for (const quality of ['default', 'color', 'gray'] as const) {
    for (const format of ['jpg', 'png', 'webp'] as const) {
      test(`${quality}.${format}`, () => assert.deepEqual(value(parseQualityFormat(`${quality}.${format}`)), { quality, format }));
    }
  }
  const refusals: [string, ImageParameter, string][] = [
    ['bitonal.jpg', 'quality', 'bitonal is not served'],
    ['grey.jpg', 'quality', 'the specification spells gray'],
    ['.jpg', 'quality', 'no quality'],
    ['default.tif', 'format', 'tif is not served'],
    ['default.jpeg', 'format', 'the extension is jpg'],
    ['default', 'format', 'no dot: no format'],
    ['default.', 'format', 'an empty format'],
  ];
  for (const [text, parameter, why] of refusals) {
    test(`${JSON.stringify(text)} is refused, naming the ${parameter} (${why})`, () => refused(parseQualityFormat(text), parameter));
  }
});

describe('a whole request, read in the order of §4.6', () => {
  test('each parameter lands where it belongs', () => {
    const request = { region: 'pct:50,50,50,50', size: '75,', rotation: '!90', qualityFormat: 'gray.png' };
    assert.deepEqual(value(readImageRequest(request, SPEC_PICTURE, ROOMY)), {
      region: box(150, 100, 150, 100), size: { width: 75, height: 50 }, mirror: true, rotation: 90, quality: 'gray', format: 'png',
    });
  });
  test('the size is read against the region, not the picture: 200, of a 175 px wide region needs ^', () => {
    refused(readImageRequest({ region: '125,15,200,200', size: '200,', rotation: '0', qualityFormat: 'default.jpg' }, SPEC_PICTURE, ROOMY), 'size');
    assert.deepEqual(value(readImageRequest({ region: '125,15,200,200', size: '^200,', rotation: '0', qualityFormat: 'default.jpg' }, SPEC_PICTURE, ROOMY)).size, { width: 200, height: 211 });
  });
  test('with several wrong, the first in the path is named', () => {
    refused(readImageRequest({ region: '0,0,0,0', size: '0,', rotation: '45', qualityFormat: 'bitonal.tif' }, SPEC_PICTURE, ROOMY), 'region');
    refused(readImageRequest({ region: 'full', size: '0,', rotation: '45', qualityFormat: 'bitonal.tif' }, SPEC_PICTURE, ROOMY), 'size');
    refused(readImageRequest({ region: 'full', size: 'max', rotation: '45', qualityFormat: 'bitonal.tif' }, SPEC_PICTURE, ROOMY), 'rotation');
    refused(readImageRequest({ region: 'full', size: 'max', rotation: '0', qualityFormat: 'bitonal.tif' }, SPEC_PICTURE, ROOMY), 'quality');
  });
});

describe('canonical form (§4.8)', () => {
  const canonical = (path: string, picture: PixelSize = SPEC_PICTURE, limits: ImageLimits = ROOMY) => {
    const [region = '', size = '', rotation = '', qualityFormat = ''] = path.split('/');
    return canonicalPath(value(readImageRequest({ region, size, rotation, qualityFormat }, picture, limits)), picture, limits);
  };
  const spellings: [string[], string, string][] = [
    [['full/max/0/default.jpg', '0,0,300,200/300,200/0/default.jpg', 'pct:0,0,100,100/pct:100/360/default.jpg', '0,0,900,900/300,/0/default.jpg', 'full/!300,300/0/default.jpg'], 'full/max/0/default.jpg', 'the whole picture at its size'],
    [['pct:50,50,50,50/pct:50/!90/gray.png', '150,100,150,100/75,/!90/gray.png', '150,100,150,100/,50/!90/gray.png', '150,100,999,999/75,50/!90/gray.png'], '150,100,150,100/75,50/!90/gray.png', 'a region, scaled, mirrored and turned'],
    [['square/max/0/color.webp', '50,0,200,200/200,200/0/color.webp'], '50,0,200,200/max/0/color.webp', 'the square region of a landscape picture'],
    [['full/^360,/0/default.jpg', 'full/^pct:120/0/default.jpg', 'full/^!360,360/0/default.jpg'], 'full/^360,240/0/default.jpg', 'upscaled: ^w,h'],
    [['full/^400,100/0/default.jpg'], 'full/^400,100/0/default.jpg', 'upscaled one way: still ^'],
  ];
  for (const [paths, expected, why] of spellings) {
    test(`${why}: ${expected}`, () => {
      for (const path of paths) assert.equal(canonical(path), expected, path);
    });
  }
  test('max is the size max serves: scaled within the limits, and ^max the largest upscaled', () => {
    const small: ImageLimits = { maxWidth: 200, maxHeight: 10_000, maxArea: 100_000_000 };
    assert.equal(canonical('full/max/0/default.jpg', SPEC_PICTURE, small), 'full/max/0/default.jpg');
    assert.equal(canonical('full/200,133/0/default.jpg', SPEC_PICTURE, small), 'full/max/0/default.jpg');
    assert.equal(canonical('full/100,/0/default.jpg', SPEC_PICTURE, small), 'full/100,67/0/default.jpg');
    const upscaling: ImageLimits = { maxWidth: 360, maxHeight: 10_000, maxArea: 100_000_000 };
    assert.equal(canonical('full/^max/0/default.jpg', SPEC_PICTURE, upscaling), 'full/^max/0/default.jpg');
    assert.equal(canonical('full/^360,240/0/default.jpg', SPEC_PICTURE, upscaling), 'full/^max/0/default.jpg');
  });
  test('different pixels, different forms: quality, format, mirroring and size each count', () => {
    const forms = ['full/max/0/default.jpg', 'full/max/0/color.jpg', 'full/max/0/default.png', 'full/max/!0/default.jpg', 'full/max/90/default.jpg', 'full/150,/0/default.jpg', '0,0,299,200/max/0/default.jpg'].map((p) => canonical(p));
    assert.equal(new Set(forms).size, forms.length, forms.join('\n'));
  });
});

describe("info.json's tiles (§5.4) and sizes (§5.3)", () => {
  const size = (width: number, height: number): PixelSize => ({ width, height });
  const factors: [PixelSize, number[], string][] = [
    [size(3000, 2000), [1, 2, 4, 8], '3000 / 8 = 375 fits a 512 px tile, 3000 / 4 = 750 does not'],
    [size(700, 1900), [1, 2, 4], 'by the longer side: 1900 / 4 = 475'],
    [size(512, 300), [1], 'exactly one tile'],
    [size(513, 10), [1, 2], 'a pixel past one tile'],
    [size(300, 200), [1], 'smaller than a tile'],
  ];
  for (const [picture, expected, why] of factors) {
    test(`scale factors of ${picture.width} × ${picture.height}: ${expected.join(', ')} (${why})`, () => assert.deepEqual(scaleFactors(picture), expected));
  }

  const sizes: [PixelSize, ImageLimits, PixelSize[], string][] = [
    [size(300, 200), ROOMY, [size(38, 25), size(75, 50), size(150, 100), size(300, 200)], 'halved (rounded up, as tiles count pixels) down to a thumbnail of at most 64 px'],
    [size(3000, 2000), { maxWidth: 10_000, maxHeight: 10_000, maxArea: 1_000_000 }, [size(47, 32), size(94, 63), size(188, 125), size(375, 250), size(750, 500)], 'none past maxArea: 3000 × 2000 and 1500 × 1000 left out'],
    [size(700, 1900), { maxWidth: 1000, maxHeight: 1000, maxArea: 100_000_000 }, [size(22, 60), size(44, 119), size(88, 238), size(175, 475), size(350, 950)], 'none past maxHeight: 700 × 1900 left out'],
    [size(50, 40), ROOMY, [size(50, 40)], 'a thumbnail already'],
  ];
  for (const [picture, limits, expected, why] of sizes) {
    test(`sizes of ${picture.width} × ${picture.height}: ${expected.map((s) => `${s.width}×${s.height}`).join(', ')} (${why})`, () => {
      assert.deepEqual(listedSizes(picture, limits), expected);
    });
  }
  test('every listed size is served as w,h of the full region (§5.3: such a request MUST be supported)', () => {
    for (const [picture, limits] of sizes) {
      for (const listed of listedSizes(picture, limits)) {
        assert.deepEqual(value(parseSize(`${listed.width},${listed.height}`, picture, limits)), listed);
      }
    }
  });
});
