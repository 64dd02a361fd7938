// Invalid footprints on the command line: `validate` lists each as a warning at its JSON path
// and exits as for a valid catalogue; `import` lists them too and loads the file as it is.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { formatCatalogue } from '../src/catalogue/dump.js';
import type { Catalogue } from '../src/catalogue/format.js';
import { buildTestCatalogue } from './support/catalogue.js';
import { runCli } from './support/cli.js';
import { createTestDatabase } from './support/stores.js';
import { temporaryDir } from './support/temporary.js';

const dir = temporaryDir();

/** The test catalogue with a bow-tie footprint (features[3]) and one repeating a position (features[7], a Polygon). */
function withInvalidFootprints(): Catalogue {
  const catalogue = buildTestCatalogue();
  catalogue.features[3]!.geometry = { type: 'MultiPolygon', coordinates: [[[[-0.07, 51.51], [-0.069, 51.511], [-0.069, 51.51], [-0.07, 51.511], [-0.07, 51.51]]]] };
  const square: [number, number][] = [[-0.06, 51.5], [-0.059, 51.5], [-0.059, 51.5], [-0.059, 51.501], [-0.06, 51.501], [-0.06, 51.5]];
  (catalogue.features[7] as { geometry: unknown }).geometry = { type: 'Polygon', coordinates: [square] };
  return catalogue;
}

const EXPECTED_WARNINGS = [
  "  features[3].geometry.coordinates[0][0]: self-intersection: the ring's edge from position 0 to 1 crosses its edge from position 2 to 3",
  '  features[7].geometry.coordinates[0][2]: repeats the position before it ([-0.059,51.5]); GIS tools drop it or call the footprint invalid',
];

function writeFile(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('invalid footprints on the command line', () => {
  const file = writeFile('invalid-footprints.json', formatCatalogue(withInvalidFootprints()));
  const database = createTestDatabase();
  after(() => database.drop());

  test('validate: each warning with its path, exit 0 and the valid summary', async () => {
    const result = await runCli(['validate', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /is a valid catalogue: 45 features/);
    const lines = result.stderr.split('\n');
    const heading = lines.findIndex((l) => l.endsWith('has footprints GIS tools call invalid, accepted as they are (2 warnings):'));
    assert.ok(heading >= 0, result.stderr);
    assert.deepEqual(lines.slice(heading + 1, heading + 3), EXPECTED_WARNINGS);
  });

  test('validate: a catalogue of valid footprints has no warning', async () => {
    const result = await runCli(['validate', writeFile('good.json', formatCatalogue(buildTestCatalogue()))]);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /warning/);
  });

  test('import: the same warnings, and the footprints stored as they are', async () => {
    const result = await runCli(['import', file, ...database.args]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(EXPECTED_WARNINGS.every((w) => result.stderr.includes(`${w}\n`)), result.stderr);
    const exported = await runCli(['export', ...database.args]);
    assert.equal(exported.code, 0, exported.stderr);
    const stored = JSON.parse(exported.stdout) as Catalogue;
    const expected = withInvalidFootprints();
    assert.deepEqual(stored.features[3]!.geometry, expected.features[3]!.geometry);
    assert.deepEqual(stored.features[7]!.geometry.coordinates, [(expected.features[7]!.geometry as unknown as { coordinates: unknown }).coordinates]);
  });
});
