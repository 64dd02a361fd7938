// Street labels from buildings' boxes: one per stretch of street, at the stretch's middle,
// turned along it and never upside down.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readable, renderStreetLabels } from '../../src/render/map-labels.js';
import type { Box } from '../../src/store/map-plans.js';

/** A building of about 10 m square centred at lon, lat. */
const at = (lon: number, lat: number): Box => [lon - 0.00007, lat - 0.00004, lon + 0.00007, lat + 0.00004];

test('CSS rotations: clockwise degrees in [-90, 90) from anticlockwise radians', () => {
  const cases: [number, number][] = [[0, 0], [Math.PI / 4, -45], [-Math.PI / 4, 45], [Math.PI / 2, -90], [-Math.PI / 2, -90], [Math.PI, 0], [(3 * Math.PI) / 4, 45]];
  for (const [radians, degrees] of cases) assert.equal(readable(radians), degrees, String(radians));
});

test('a street running east–west is labelled flat at its middle', () => {
  const [label] = renderStreetLabels([{ name: 'Fournier Street', boxes: [at(-0.071, 51.519), at(-0.0705, 51.519), at(-0.070, 51.519)] }]);
  assert.deepEqual(label, { name: 'Fournier Street', lon: -0.0705, lat: 51.519, angle: 0 });
});

test('a street running north–south is labelled upright', () => {
  const [label] = renderStreetLabels([{ name: 'Brick Lane', boxes: [at(-0.07, 51.518), at(-0.07, 51.5185), at(-0.07, 51.519)] }]);
  assert.equal(label!.angle, -90);
});

test('a street running north-east on the ground turns as a north-up map shows it', () => {
  // 0.001° of latitude is as long as 0.001 / cos(51.5°) of longitude: equal metres north and east.
  const east = 0.001 / Math.cos((51.5 * Math.PI) / 180);
  const [label] = renderStreetLabels([{ name: 'Diagonal Row', boxes: [at(0, 51.5), at(east, 51.501)] }]);
  assert.equal(label!.angle, -45);
});

test('a long street has a label per stretch of about 250 m, each among its buildings', () => {
  const boxes = Array.from({ length: 11 }, (_, i) => at(-0.08 + i * 0.001, 51.515));
  const labels = renderStreetLabels([{ name: 'Commercial Road', boxes }]);
  assert.ok(labels.length >= 2 && labels.length <= 4, `${labels.length} labels`);
  for (const l of labels) assert.ok(l.lon >= -0.08 && l.lon <= -0.07 && l.angle === 0, JSON.stringify(l));
});

test('one building: labelled at it, flat', () => {
  assert.deepEqual(renderStreetLabels([{ name: 'Lone Lane', boxes: [at(-0.06, 51.51)] }]), [{ name: 'Lone Lane', lon: -0.06, lat: 51.51, angle: 0 }]);
});
