// The categories' palette: 22 colours that no one confuses, the colour-blind included:
// every two differ by ΔE2000 ≥ 8 in normal vision and ≥ 6 under simulated deuteranopia and
// protanopia (about 2.3 is a just-noticeable difference), and none is near the grey of "no
// category" or the map's background.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CATEGORY_PALETTE, MAP_BACKGROUND, NO_CATEGORY_COLOUR, categoryColour } from '../../src/palette.js';
import { colourDifference, deltaE2000, VISIONS } from '../support/colour-difference.js';

const FLOOR = { normal: 8, deuteranopia: 6, protanopia: 6 } as const;

test('ΔE2000 matches Sharma, Wu and Dalal’s published test pairs', () => {
  const pairs: [[number, number, number], [number, number, number], number][] = [
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, -1.3802, -84.2814], [50, 0, -82.7485], 1.0],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
  ];
  for (const [a, b, expected] of pairs) assert.ok(Math.abs(deltaE2000(a, b) - expected) < 1e-4, `${a} ${b}: ${deltaE2000(a, b)}`);
});

test('22 colours, each written once', () => {
  assert.equal(CATEGORY_PALETTE.length, 22);
  assert.equal(new Set(CATEGORY_PALETTE.map((c) => c.toLowerCase())).size, 22);
  assert.ok(CATEGORY_PALETTE.every((c) => /^#[0-9A-F]{6}$/i.test(c)));
});

for (const vision of VISIONS) {
  test(`every two colours, the "no category" grey and the background differ in ${vision} vision`, () => {
    const all = [...CATEGORY_PALETTE, NO_CATEGORY_COLOUR, MAP_BACKGROUND];
    const close: string[] = [];
    for (let i = 0; i < all.length; i++) {
      for (let j = i + 1; j < all.length; j++) {
        const d = colourDifference(all[i]!, all[j]!, vision);
        if (d < FLOOR[vision]) close.push(`${all[i]} ${all[j]}: ${d.toFixed(1)}`);
      }
    }
    assert.deepEqual(close, []);
  });
}

test('a category’s colour is its rank’s, round again past 22', () => {
  assert.equal(categoryColour(0), CATEGORY_PALETTE[0]);
  assert.equal(categoryColour(21), CATEGORY_PALETTE[21]);
  assert.equal(categoryColour(22), CATEGORY_PALETTE[0]);
});
