// Imports kept between test processes (test/support/kept-imports.ts): the first import of a
// catalogue is kept, a later one into a fresh file is a copy of it, and holds the same catalogue.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open.js';
import { replaceCatalogue } from '../../src/store/apply/replace.js';
import { assertSameCatalogue, storedCatalogue } from '../support/apply.js';
import { buildTestCatalogue } from '../support/catalogue.js';
import { keptImport } from '../support/kept-imports.js';
import { temporaryDir } from '../support/temporary.js';

test('a catalogue imported once is copied after, whole; another catalogue is imported', async () => {
  const [kept, work] = [temporaryDir(), temporaryDir()];
  let imports = 0;
  const importer = (file: string, catalogue = buildTestCatalogue()) => async () => {
    imports += 1;
    const store = await openStore(loadConfig({ database: file }, {}), { create: true });
    await replaceCatalogue(store, catalogue);
    await store.close();
  };
  const [first, second] = [path.join(work, 'first.db'), path.join(work, 'second.db')];
  await keptImport(first, buildTestCatalogue(), importer(first), kept);
  await keptImport(second, buildTestCatalogue(), importer(second), kept);
  assert.equal(imports, 1, 'the second import is the kept file');
  assert.equal(fs.readdirSync(kept).length, 1);
  assertSameCatalogue(await storedCatalogue({ database: second }), buildTestCatalogue());

  const other = buildTestCatalogue();
  other.features[0]!.address = 'Somewhere else';
  const third = path.join(work, 'third.db');
  await keptImport(third, other, importer(third, other), kept);
  assert.equal(imports, 2, 'another catalogue is imported');
  assertSameCatalogue(await storedCatalogue({ database: third }), other);
});
