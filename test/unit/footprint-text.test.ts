// The footprint field's text (src/editing/footprint-text.ts), its HTML
// (footprint-field.ts), and the map's shapes made polygons (web/edit/footprint-geometry.ts):
// rounding, the layout written, what a text must be to be drawn, holes given to their parts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { footprintAssets, footprintField, footprintHead, footprintPageHeaders } from '../../src/render/edit/footprint-field.js';
import { formatFootprint, parseFootprint, roundCoordinate, type Ring } from '../../src/editing/footprint-text.js';
import { assemble, boundsOf, contains, shapesOf, signedArea } from '../../web/edit/footprint-geometry.js';
import { temporaryDir } from '../support/temporary.js';

const square = (x: number, y: number, size: number): Ring => [[x, y], [x + size, y], [x + size, y + size], [x, y + size], [x, y]];
const clockwise = (ring: Ring): Ring => [...ring].reverse();

test('coordinates are rounded to 7 decimals and print with at most 7', () => {
  const cases: [number, number][] = [[-0.06496424999, -0.0649642], [51.51672985, 51.5167299], [0.1 + 0.2, 0.3], [-180, -180], [12.00000004, 12]];
  for (const [value, rounded] of cases) {
    assert.equal(roundCoordinate(value), rounded, String(value));
    assert.ok((String(roundCoordinate(value)).split('.')[1] ?? '').length <= 7);
  }
});

test('the text: one ring to a line, rounded, and it reads back as the same polygons', () => {
  const polygons = [[square(-0.07, 51.5, 0.001), clockwise(square(-0.0698, 51.5002, 0.0002))], [square(-0.06, 51.5, 0.00012345678)]];
  const text = formatFootprint(polygons);
  assert.equal(text.split('\n')[0], '{"type": "MultiPolygon", "coordinates": [');
  assert.equal(text.split('\n').filter((line) => line.startsWith('    [[')).length, 3, 'a line per ring');
  const parsed = parseFootprint(text);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.polygons[0], polygons[0]);
  assert.equal(parsed.polygons[1]?.[0]?.[1]?.[0], -0.0598765, 'rounded');
  assert.deepEqual(JSON.parse(text), { type: 'MultiPolygon', coordinates: parsed.polygons });
});

test('what a text must be to be drawn, each problem named with its JSON path', () => {
  const ring = square(0, 0, 1);
  const cases: { text: string; problem: RegExp | null; polygons?: number }[] = [
    { text: '', problem: null, polygons: 0 },
    { text: '  \n', problem: null, polygons: 0 },
    { text: JSON.stringify({ type: 'Polygon', coordinates: [ring] }), problem: null, polygons: 1 },
    { text: JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: [[ring], [ring]] } }), problem: null, polygons: 2 },
    { text: '{"type": "MultiPolygon", "coordinates": [', problem: /not JSON/ },
    { text: JSON.stringify({ type: 'Point', coordinates: [0, 0] }), problem: /not a GeoJSON MultiPolygon or Polygon/ },
    { text: JSON.stringify({ type: 'MultiPolygon', coordinates: 'none' }), problem: /^coordinates: not a list/ },
    { text: JSON.stringify({ type: 'MultiPolygon', coordinates: [[]] }), problem: /^coordinates\[0\]: a polygon is a list of rings/ },
    { text: JSON.stringify({ type: 'MultiPolygon', coordinates: [[ring], [ring.slice(0, 3)]] }), problem: /^coordinates\[1\]\[0\]: a ring needs at least 4 positions/ },
    { text: JSON.stringify({ type: 'MultiPolygon', coordinates: [[ring, ring.slice(0, 4)]] }), problem: /^coordinates\[0\]\[1\]: the ring is not closed/ },
    { text: JSON.stringify({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 'x'], [0, 0]]] }), problem: /^coordinates\[0\]\[2\]: not a \[longitude, latitude\]/ },
    { text: JSON.stringify({ type: 'Polygon', coordinates: [[[0, 0], [200, 0], [1, 1], [0, 0]]] }), problem: /^coordinates\[0\]\[1\]: not a \[longitude, latitude\]/ },
    { text: JSON.stringify({ type: 'Polygon', coordinates: [[[0, 0], [1, 95], [1, 1], [0, 0]]] }), problem: /^coordinates\[0\]\[1\]: not a/ },
  ];
  for (const { text, problem, polygons } of cases) {
    const parsed = parseFootprint(text);
    if (problem === null) {
      assert.ok(parsed.ok, text);
      assert.equal(parsed.polygons.length, polygons, text);
    } else {
      assert.ok(!parsed.ok, text);
      assert.match(parsed.problem, problem, text);
    }
  }
});

test('holes drawn as shapes of their own go to the first part their first corner is in; the rest are counted, not written', () => {
  const big = square(0, 0, 10);
  const small = square(20, 0, 5);
  const inBig = square(2, 2, 2);
  const inSmall = square(21, 1, 1);
  const outside = square(50, 50, 1);
  const { polygons, orphans } = assemble({ parts: [clockwise(big), small], holes: [inSmall, outside, inBig] });
  assert.equal(orphans, 1);
  assert.equal(polygons.length, 2);
  assert.deepEqual(polygons[0], [big, clockwise(inBig)], 'outline anticlockwise, hole clockwise');
  assert.deepEqual(polygons[1], [small, clockwise(inSmall)]);
  assert.ok(signedArea(big) > 0 && signedArea(clockwise(big)) < 0);
  assert.deepEqual(shapesOf(polygons), { parts: [big, small], holes: [clockwise(inBig), clockwise(inSmall)] });
  assert.deepEqual(assemble({ parts: [], holes: [inBig] }), { polygons: [], orphans: 1 });
});

test('inside a ring, and the bounds of the outlines', () => {
  const ring = square(0, 0, 10);
  const cases: [[number, number], boolean][] = [[[5, 5], true], [[0.001, 9.999], true], [[-1, 5], false], [[11, 5], false], [[5, 10.5], false]];
  for (const [point, inside] of cases) assert.equal(contains(ring, point), inside, String(point));
  assert.deepEqual(boundsOf([[square(1, 2, 3)], [square(-5, 0, 1), square(100, 100, 1)]]), [-5, 0, 4, 5], 'holes do not widen the bounds');
  assert.equal(boundsOf([]), null);
});

test('the field escapes its text and says its problem; the assets come from the manifest, or none', () => {
  const text = '</textarea><script>alert(1)</script> & "x"';
  const html = footprintField(text, 'coordinates[0]: <b>crossed</b>');
  assert.ok(html.includes('&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</textarea>'));
  assert.ok(html.includes('<p class="problem" role="alert" id="problem-geometry">coordinates[0]: &lt;b&gt;crossed&lt;/b&gt;</p>'));
  assert.match(html, /<textarea id="geometry" name="geometry" rows="8" spellcheck="false" aria-describedby="hint-geometry problem-geometry" aria-invalid="true">\n/);
  assert.ok(html.startsWith('<div class="footprint" data-footprint>\n<label for="geometry">Footprint (GeoJSON MultiPolygon, longitude/latitude)</label>'));
  assert.ok(!footprintField('', null).includes('aria-invalid'));

  const [dir, unbuilt] = [temporaryDir(), temporaryDir()];
  try {
    assert.equal(footprintAssets('https://example.org/base', unbuilt), null, 'not built');
    assert.equal(footprintHead(null), '');
    fs.writeFileSync(path.join(dir, 'edit.json'), JSON.stringify({ footprint: { script: 'footprint-AB.js', style: 'footprint-CD.css' } }));
    const assets = footprintAssets('https://example.org/base', dir);
    assert.deepEqual(assets, { script: 'https://example.org/base/map/assets/footprint-AB.js', style: 'https://example.org/base/map/assets/footprint-CD.css' });
    assert.equal(footprintHead(assets), '<link rel="stylesheet" href="https://example.org/base/map/assets/footprint-CD.css">\n<script type="module" src="https://example.org/base/map/assets/footprint-AB.js"></script>\n');
    fs.rmSync(path.join(dir, 'edit.json'));
    assert.deepEqual(footprintAssets('https://example.org/base', dir), assets, 'read once: a running server keeps the build it started with');
  } finally {
    for (const made of [dir, unbuilt]) fs.rmSync(made, { recursive: true, force: true });
  }
});

test('the headers of a page with the map: scripts and the worker from this server only', () => {
  const csp = footprintPageHeaders(null)['content-security-policy'] ?? '';
  for (const directive of ["default-src 'none'", "script-src 'self'", "worker-src 'self'", "style-src 'self'", "form-action 'self'", "connect-src 'self'"]) assert.ok(csp.split('; ').includes(directive), directive);
  assert.ok(!csp.includes('unsafe'));
  const withBasemap = footprintPageHeaders('https://tiles.example.net/{z}/{x}/{y}.png')['content-security-policy'] ?? '';
  assert.ok(withBasemap.includes("connect-src 'self' https: https://tiles.example.net"));
  assert.equal(footprintPageHeaders(null)['x-content-type-options'], 'nosniff');
});
