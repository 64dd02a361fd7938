// Street labels from buildings' centres: one per stretch of street, in the street (between
// its rows of buildings, or beside a single row), turned along it and never upside down.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Centres, placeStreetLabels, readable } from '../../src/store/apply/street-labels.js';
import type { Box } from '../../src/store/map/map-plans.js';

/** Every street's labels, each placed among all the streets' buildings (as an import places them). */
function renderStreetLabels(streets: { name: string; centres: number[] }[]) {
  const around = new Centres();
  for (const { centres } of streets) for (let k = 0; k < centres.length; k += 2) around.add(centres[k]!, centres[k + 1]!);
  return streets.flatMap(({ name, centres }) => placeStreetLabels(name, centres, around));
}

/** A building of about 10 m square centred at lon, lat. */
const at = (lon: number, lat: number): Box => [lon - 0.00007, lat - 0.00004, lon + 0.00007, lat + 0.00004];

/** A street as the store gives it: its buildings' boxes' centres, lon, lat, lon, lat… */
const street = (name: string, boxes: Box[]) => ({ name, centres: boxes.flatMap(([x1, y1, x2, y2]) => [(x1 + x2) / 2, (y1 + y2) / 2]) });

test('CSS rotations: clockwise degrees in [-90, 90) from anticlockwise radians', () => {
  const cases: [number, number][] = [[0, 0], [Math.PI / 4, -45], [-Math.PI / 4, 45], [Math.PI / 2, -90], [-Math.PI / 2, -90], [Math.PI, 0], [(3 * Math.PI) / 4, 45]];
  for (const [radians, degrees] of cases) assert.equal(readable(radians), degrees, String(radians));
});

/** 14 m of latitude: from a row of buildings' centres to the middle of the street. */
const FRONT = 14 / 111_320;
const near = (a: number, b: number) => Math.abs(a - b) < 2e-6;

test('a street with buildings on both sides is labelled flat in the middle, between them', () => {
  const north = [-0.071, -0.0705, -0.070].map((lon) => at(lon, 51.5192));
  const south = [-0.071, -0.0705, -0.070].map((lon) => at(lon, 51.5188));
  const [label] = renderStreetLabels([street('Fournier Street', [...north, ...south])]);
  assert.deepEqual(label, { name: 'Fournier Street', lon: -0.0705, lat: 51.519, angle: 0 });
});

test('a row of buildings on one side: the label goes beside it, on the side without buildings', () => {
  const row = [-0.071, -0.0705, -0.070].map((lon) => at(lon, 51.519));
  // Another street's buildings stand just behind the row, to the north.
  const behind = [-0.071, -0.0705, -0.070].map((lon) => at(lon, 51.519 + FRONT));
  const [label] = renderStreetLabels([street('Fournier Street', row), street('Back Lane', behind)]);
  assert.ok(near(label!.lon, -0.0705) && near(label!.lat, 51.519 - FRONT) && label!.angle === 0, JSON.stringify(label));
});

test('a street running north–south is labelled upright', () => {
  const [label] = renderStreetLabels([street('Brick Lane', [at(-0.07, 51.518), at(-0.07, 51.5185), at(-0.07, 51.519)])]);
  assert.equal(label!.angle, -90);
});

test('a street running north-east on the ground turns as a north-up map shows it', () => {
  // 0.001° of latitude is as long as 0.001 / cos(51.5°) of longitude: equal metres north and east.
  const east = 0.001 / Math.cos((51.5 * Math.PI) / 180);
  const [label] = renderStreetLabels([street('Diagonal Row', [at(0, 51.5), at(east, 51.501)])]);
  assert.equal(label!.angle, -45);
});

test('a long street has a label per stretch of about 250 m, each among its buildings', () => {
  const boxes = Array.from({ length: 11 }, (_, i) => at(-0.08 + i * 0.001, 51.515));
  const labels = renderStreetLabels([street('Commercial Road', boxes)]);
  assert.ok(labels.length >= 2 && labels.length <= 4, `${labels.length} labels`);
  for (const l of labels) assert.ok(l.lon >= -0.08 && l.lon <= -0.07 && l.angle === 0, JSON.stringify(l));
});

test('one building: labelled beside it, flat', () => {
  const [label] = renderStreetLabels([street('Lone Lane', [at(-0.06, 51.51)])]);
  assert.ok(near(label!.lon, -0.06) && near(Math.abs(label!.lat - 51.51), FRONT) && label!.angle === 0, JSON.stringify(label));
});

test('no streets, no labels', () => {
  assert.deepEqual(renderStreetLabels([]), []);
});

test('a street’s labels depend on the buildings near it alone: streets far off (another latitude too) change none of them', () => {
  const row = street('Fournier Street', [-0.071, -0.0705, -0.070].map((lon) => at(lon, 51.519)));
  const behind = street('Back Lane', [-0.071, -0.0705, -0.070].map((lon) => at(lon, 51.519 + FRONT)));
  const far = street('Far Road', Array.from({ length: 50 }, (_, i) => at(-0.2 + i * 0.0002, 52.4)));
  const alone = renderStreetLabels([row, behind]);
  assert.deepEqual(renderStreetLabels([row, behind, far]).slice(0, alone.length), alone);
});
